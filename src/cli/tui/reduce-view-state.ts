import type { ForgeEvent, LiveEvent } from '../../core/index.js';
import { foldRunView, type RunView } from '../../contract/index.js';
import { terminalSafeValue } from '../terminal-text.js';
import { emptyViewState, streamCapacity } from './view-state.js';
import type { ViewEvent, ViewState } from './view-state.js';

/**
 * Folds one event into the view: the run view (the fold shared with the web UI) and what only the
 * terminal keeps, its recent events and the streaming draft. Pure: returns a new state and never mutates
 * its input, so React can compare states by reference. Every string of the event enters the view with
 * its terminal control characters escaped (see `terminalText`): the view draws nothing else, so no tool
 * output or model text can send the terminal an escape sequence.
 */
export function reduceViewState(state: ViewState, received: ViewEvent): ViewState {
  if (received.type === 'assistant-text-delta') return withTextDelta(state, terminalSafeValue(received));
  const event = terminalSafeValue(received);
  const run = foldRunView(state.run, event);
  return { ...selectedFromRun(run), stream: appendCapped(state.stream, event), draft: endsDraft(event) ? null : state.draft };
}

/** The view after all of `events`, in order. */
export function viewStateFromEvents(events: Iterable<ViewEvent>, initial: ViewState = emptyViewState): ViewState {
  let state = initial;
  for (const event of events) state = reduceViewState(state, event);
  return state;
}

/** What the terminal draws of the run view. */
function selectedFromRun(run: RunView): Omit<ViewState, 'stream' | 'draft'> {
  return {
    run,
    runId: run.start?.run_id ?? null,
    task: run.start?.task ?? null,
    model: run.start?.model ?? null,
    startedAtMs: run.startedAtMs,
    lastEventAtMs: run.lastEventAtMs,
    eventCount: run.eventCount,
    toolbox: run.toolbox.map(({ lastChange: _lastChange, ...entry }) => entry),
    plan: run.plan?.steps ?? [],
    convergence: run.convergence,
    totals: run.totals,
    modelCallsInFlight: run.modelCallsInFlight,
    end: run.end,
  };
}

/** A model call's end (its text, its record, its failure) or the run's: the whole text is an event now. */
function endsDraft(event: ForgeEvent): boolean {
  return event.type === 'model-call' || event.type === 'assistant-text' || event.type === 'model-error' || event.type === 'run-end';
}

/** A piece of streamed text: it grows the draft of its iteration (a new iteration starts a new one) and is not an event of the stream. */
function withTextDelta(state: ViewState, delta: LiveEvent): ViewState {
  const text = state.draft?.iteration === delta.iteration ? state.draft.text + delta.delta : delta.delta;
  return { ...state, draft: { iteration: delta.iteration, text } };
}

function appendCapped(stream: readonly ForgeEvent[], event: ForgeEvent): readonly ForgeEvent[] {
  const appended = [...stream, event];
  return appended.length > streamCapacity ? appended.slice(appended.length - streamCapacity) : appended;
}
