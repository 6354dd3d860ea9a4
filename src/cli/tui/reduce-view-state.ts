import type { EventOf, ForgeEvent, LiveEvent } from '../../core/index.js';
import { terminalSafeValue } from '../terminal-text.js';
import { emptyViewState, streamCapacity } from './view-state.js';
import type { ModelCallInFlight, ViewEvent, ViewTotals, ToolboxEntry, ViewState } from './view-state.js';

/**
 * Folds one event into the view. Pure: returns a new state and never mutates its input, so React can
 * compare states by reference. Unknown combinations (a result without its start, a change for a tool
 * never announced) are absorbed rather than rejected: the view shows what happened, the run log reader
 * is the place that judges validity. Every string of the event enters the view with its terminal
 * control characters escaped (see `terminalText`): the view draws nothing else, so no tool output or
 * model text can send the terminal an escape sequence.
 */
export function reduceViewState(state: ViewState, received: ViewEvent): ViewState {
  if (received.type === 'assistant-text-delta') return withTextDelta(state, terminalSafeValue(received));
  const event = terminalSafeValue(received);
  const atMs = eventTimeMs(event) ?? state.lastEventAtMs;
  const next: ViewState = {
    ...state,
    eventCount: state.eventCount + 1,
    lastEventAtMs: atMs,
    stream: appendCapped(state.stream, event),
  };
  switch (event.type) {
    case 'run-start':
      return {
        ...next,
        runId: event.run_id,
        task: event.task,
        model: event.model,
        startedAtMs: atMs,
        toolbox: event.tools.reduce(addBuiltinTool, next.toolbox),
      };
    case 'model-call-start':
      return {
        ...next,
        modelCallsInFlight: [...next.modelCallsInFlight, { model: event.model, iteration: event.iteration, startedAtMs: atMs ?? 0 }],
      };
    case 'model-call':
      return { ...next, draft: null, totals: addModelCall(next.totals, event), modelCallsInFlight: withoutFinishedCall(next.modelCallsInFlight, event) };
    case 'assistant-text':
      return { ...next, draft: null };
    case 'model-error':
      return {
        ...next,
        draft: null,
        totals: { ...next.totals, failedModelCalls: next.totals.failedModelCalls + 1 },
        modelCallsInFlight: withoutFinishedCall(next.modelCallsInFlight, event),
      };
    case 'tool-call-start':
      return { ...next, toolbox: withToolCalled(next.toolbox, event.tool) };
    case 'toolbox-change':
      return { ...next, toolbox: withToolChanged(next.toolbox, event) };
    case 'plan-update':
      return { ...next, plan: event.steps };
    case 'convergence-check':
      return { ...next, convergence: event };
    case 'run-end':
      return { ...next, end: event, draft: null, modelCallsInFlight: [] };
    default:
      return next;
  }
}

/** The view after all of `events`, in order. */
export function viewStateFromEvents(events: Iterable<ViewEvent>, initial: ViewState = emptyViewState): ViewState {
  let state = initial;
  for (const event of events) state = reduceViewState(state, event);
  return state;
}

/** A piece of streamed text: it grows the draft of its iteration (a new iteration starts a new one) and is not an event of the stream. */
function withTextDelta(state: ViewState, delta: LiveEvent): ViewState {
  const text = state.draft?.iteration === delta.iteration ? state.draft.text + delta.delta : delta.delta;
  return { ...state, draft: { iteration: delta.iteration, text } };
}

function eventTimeMs(event: ForgeEvent): number | null {
  const ms = Date.parse(event.ts);
  return Number.isNaN(ms) ? null : ms;
}

function appendCapped(stream: readonly ForgeEvent[], event: ForgeEvent): readonly ForgeEvent[] {
  const appended = [...stream, event];
  return appended.length > streamCapacity ? appended.slice(appended.length - streamCapacity) : appended;
}

function addBuiltinTool(toolbox: readonly ToolboxEntry[], name: string): readonly ToolboxEntry[] {
  if (toolbox.some((entry) => entry.name === name)) return toolbox;
  return [...toolbox, { name, status: 'builtin', uses: 0, revisions: 0 }];
}

function withToolCalled(toolbox: readonly ToolboxEntry[], name: string): readonly ToolboxEntry[] {
  const known = addBuiltinTool(toolbox, name);
  return known.map((entry) => (entry.name === name ? { ...entry, uses: entry.uses + 1 } : entry));
}

function withToolChanged(toolbox: readonly ToolboxEntry[], change: EventOf<'toolbox-change'>): readonly ToolboxEntry[] {
  const entry: ToolboxEntry = { name: change.tool, status: change.status, uses: change.uses, revisions: change.revisions };
  const index = toolbox.findIndex((existing) => existing.name === change.tool);
  if (index === -1) return [...toolbox, entry];
  return toolbox.map((existing, position) => (position === index ? entry : existing));
}

function addModelCall(totals: ViewTotals, call: EventOf<'model-call'>): ViewTotals {
  return {
    ...totals,
    modelCalls: totals.modelCalls + 1,
    inputTokens: totals.inputTokens + call.tokens.input,
    outputTokens: totals.outputTokens + call.tokens.output,
    costUsd: totals.costUsd + (call.cost_usd ?? 0),
    unpricedCalls: totals.unpricedCalls + (call.cost_usd === null ? 1 : 0),
  };
}

// Calls carry no id, so a finished call is matched to the oldest started call of the same model and
// iteration, falling back to the oldest of all: a stale spinner would be worse than a misattributed one.
function withoutFinishedCall(
  inFlight: readonly ModelCallInFlight[],
  finished: EventOf<'model-call'> | EventOf<'model-error'>,
): readonly ModelCallInFlight[] {
  if (inFlight.length === 0) return inFlight;
  const match = inFlight.findIndex((call) => call.model === finished.model && call.iteration === finished.iteration);
  const index = match === -1 ? 0 : match;
  return inFlight.filter((_, position) => position !== index);
}
