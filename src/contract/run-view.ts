import type { EventOf, ForgeEvent } from '../core/index.js';

/**
 * The one fold of a run's event stream into a view of the run, shared by the terminal UI and the web UI
 * (each selects what it draws). Pure and incremental: `foldRunView` returns a new view and never
 * mutates its input, so React can compare views by reference, and a view is the same whether its events
 * arrived live or from a recorded run. Times come from the events' `ts`, never from the wall clock.
 * Unknown combinations (a result without its start, a change for a tool never announced) are absorbed
 * rather than rejected: the view shows what happened, the run log reader judges validity. Events are
 * kept as they came (boundary tags included): each UI makes them readable or terminal-safe itself.
 * Imports only core types, so the web UI bundles it.
 */

/** One tool call as its card shows it, from its events. */
export interface ToolCallView {
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly startedAt: string;
  readonly policy?: EventOf<'policy-decision'>;
  readonly approvalRequest?: EventOf<'approval-request'>;
  readonly approvalAnswer?: EventOf<'approval-answer'>;
  readonly result?: EventOf<'tool-result'>;
  readonly error?: EventOf<'tool-error'>;
  readonly logs: readonly string[];
  /** running → awaiting_approval → (denied | blocked | done | failed). */
  readonly status: 'running' | 'awaiting_approval' | 'denied' | 'blocked' | 'done' | 'failed';
}

/** The transcript in order: the model's texts and its tool calls (by id, see `calls`). */
export type TimelineItem = { readonly kind: 'text'; readonly seq: number; readonly text: string; readonly iteration: number } | { readonly kind: 'tool'; readonly seq: number; readonly callId: string };

/** A synthesized tool's lifecycle state, or `builtin` for a tool the run started with. */
export type ToolboxStatus = 'builtin' | EventOf<'toolbox-change'>['status'];

/**
 * One tool of the run's toolbox. Tools are listed in the order they first appeared and are never
 * removed: a tool that failed verification stays, because the graveyard is part of the story.
 */
export interface ToolboxEntry {
  readonly name: string;
  readonly status: ToolboxStatus;
  /**
   * Calls of this tool. For a synthesized tool this is the count its last `toolbox-change` reported (which
   * may include earlier runs, the toolbox persists) plus the calls seen since, so it is right whether or
   * not producers announce every use.
   */
  readonly uses: number;
  readonly revisions: number;
  /** The tool's last `toolbox-change` as it was announced; null for a tool the run started with. */
  readonly lastChange: EventOf<'toolbox-change'> | null;
}

/** A model call that has started and not yet finished. */
export interface ModelCallInFlight {
  readonly model: string;
  readonly iteration: number;
  readonly startedAtMs: number;
}

/**
 * Totals counted from the `model-call` and `model-error` events themselves, never taken from the run's
 * own summary, so what a UI shows is what the log proves. `unpricedCalls` counts calls whose cost was
 * unknown (`cost_usd: null`): the run's cost is then unknown, and `costUsd` only its known part.
 */
export interface RunTotals {
  readonly modelCalls: number;
  readonly failedModelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly unpricedCalls: number;
}

/** What a run's events add up to. */
export interface RunView {
  /** The run's first `run-start`. */
  readonly start: EventOf<'run-start'> | null;
  /** The run's `run-end`; null while it runs, and again once a paused run resumes. */
  readonly end: EventOf<'run-end'> | null;
  readonly paused: boolean;
  readonly startedAtMs: number | null;
  readonly lastEventAtMs: number | null;
  readonly eventCount: number;
  readonly items: readonly TimelineItem[];
  readonly calls: ReadonlyMap<string, ToolCallView>;
  readonly modelCalls: readonly EventOf<'model-call'>[];
  readonly modelErrors: readonly EventOf<'model-error'>[];
  readonly modelCallsInFlight: readonly ModelCallInFlight[];
  readonly totals: RunTotals;
  readonly plan: EventOf<'plan-update'> | null;
  readonly toolbox: readonly ToolboxEntry[];
  readonly verifications: readonly EventOf<'verification-failed'>[];
  readonly syntheses: readonly EventOf<'synthesis-end'>[];
  readonly convergence: EventOf<'convergence-check'> | null;
  readonly skillSteps: readonly EventOf<'skill-step'>[];
  readonly stale: readonly EventOf<'skill-stale'>[];
}

export const emptyRunView: RunView = {
  start: null,
  end: null,
  paused: false,
  startedAtMs: null,
  lastEventAtMs: null,
  eventCount: 0,
  items: [],
  calls: new Map(),
  modelCalls: [],
  modelErrors: [],
  modelCallsInFlight: [],
  totals: { modelCalls: 0, failedModelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
  plan: null,
  toolbox: [],
  verifications: [],
  syntheses: [],
  convergence: null,
  skillSteps: [],
  stale: [],
};

/** The view after one more event. */
export function foldRunView(view: RunView, event: ForgeEvent): RunView {
  const atMs = eventTimeMs(event) ?? view.lastEventAtMs;
  const next: RunView = { ...view, eventCount: view.eventCount + 1, lastEventAtMs: atMs };
  switch (event.type) {
    case 'run-start':
      return {
        ...next,
        ...(next.start === null ? { start: event, startedAtMs: atMs } : {}),
        toolbox: event.tools.reduce(addBuiltinTool, next.toolbox),
      };
    case 'run-end':
      return { ...next, end: event, paused: false, modelCallsInFlight: [] };
    case 'run-pause':
      return { ...next, paused: true };
    case 'run-resume':
      return { ...next, paused: false, end: null };
    case 'assistant-text':
      return event.text.trim() === '' ? next : { ...next, items: [...next.items, { kind: 'text', seq: event.seq, text: event.text, iteration: event.iteration }] };
    case 'tool-call-start':
      return {
        ...next,
        toolbox: withToolCalled(next.toolbox, event.tool),
        ...(next.calls.has(event.call_id)
          ? {}
          : {
              calls: withCall(next.calls, { callId: event.call_id, tool: event.tool, input: event.input, startedAt: event.ts, logs: [], status: 'running' }),
              items: [...next.items, { kind: 'tool', seq: event.seq, callId: event.call_id }],
            }),
      };
    case 'policy-decision':
      return { ...next, calls: updateCall(next.calls, event.call_id, () => ({ policy: event })) };
    case 'approval-request':
      return { ...next, calls: updateCall(next.calls, event.call_id, () => ({ approvalRequest: event })) };
    case 'approval-answer':
      return { ...next, calls: updateCall(next.calls, event.call_id, () => ({ approvalAnswer: event })) };
    case 'tool-result':
      return { ...next, calls: updateCall(next.calls, event.call_id, () => ({ result: event })) };
    case 'tool-error':
      return { ...next, calls: updateCall(next.calls, event.call_id, () => ({ error: event })) };
    case 'tool-log':
      return { ...next, calls: updateCall(next.calls, event.call_id, (call) => ({ logs: [...call.logs, ...event.lines] })) };
    case 'model-call-start':
      return { ...next, modelCallsInFlight: [...next.modelCallsInFlight, { model: event.model, iteration: event.iteration, startedAtMs: atMs ?? 0 }] };
    case 'model-call':
      return {
        ...next,
        modelCalls: [...next.modelCalls, event],
        totals: addModelCall(next.totals, event),
        modelCallsInFlight: withoutFinishedCall(next.modelCallsInFlight, event),
      };
    case 'model-error':
      return {
        ...next,
        modelErrors: [...next.modelErrors, event],
        totals: { ...next.totals, failedModelCalls: next.totals.failedModelCalls + 1 },
        modelCallsInFlight: withoutFinishedCall(next.modelCallsInFlight, event),
      };
    case 'plan-update':
      return { ...next, plan: event };
    case 'toolbox-change':
      return { ...next, toolbox: withToolChanged(next.toolbox, event) };
    case 'verification-failed':
      return { ...next, verifications: [...next.verifications, event] };
    case 'synthesis-end':
      return { ...next, syntheses: [...next.syntheses, event] };
    case 'convergence-check':
      return { ...next, convergence: event };
    case 'skill-step':
      return { ...next, skillSteps: [...next.skillSteps, event] };
    case 'skill-stale':
      return { ...next, stale: [...next.stale, event] };
    default:
      return next;
  }
}

/** The view after all of `events`, in order. */
export function runViewOf(events: Iterable<ForgeEvent>, initial: RunView = emptyRunView): RunView {
  let view = initial;
  for (const event of events) view = foldRunView(view, event);
  return view;
}

function eventTimeMs(event: ForgeEvent): number | null {
  const ms = Date.parse(event.ts);
  return Number.isNaN(ms) ? null : ms;
}

function statusOf(call: Omit<ToolCallView, 'status'>): ToolCallView['status'] {
  if (call.result !== undefined) return 'done';
  if (call.policy?.decision === 'block') return 'blocked';
  if (call.approvalAnswer !== undefined && call.approvalAnswer.decision !== 'approved') return 'denied';
  if (call.error !== undefined) return 'failed';
  if (call.approvalRequest !== undefined && call.approvalAnswer === undefined) return 'awaiting_approval';
  return 'running';
}

function withCall(calls: ReadonlyMap<string, ToolCallView>, call: ToolCallView): ReadonlyMap<string, ToolCallView> {
  return new Map(calls).set(call.callId, call);
}

/** `calls` with one call changed (its status follows); a call never started is left out. */
function updateCall(calls: ReadonlyMap<string, ToolCallView>, callId: string, change: (call: ToolCallView) => Partial<Omit<ToolCallView, 'status'>>): ReadonlyMap<string, ToolCallView> {
  const call = calls.get(callId);
  if (call === undefined) return calls;
  const changed = { ...call, ...change(call) };
  return withCall(calls, { ...changed, status: statusOf(changed) });
}

function addBuiltinTool(toolbox: readonly ToolboxEntry[], name: string): readonly ToolboxEntry[] {
  if (toolbox.some((entry) => entry.name === name)) return toolbox;
  return [...toolbox, { name, status: 'builtin', uses: 0, revisions: 0, lastChange: null }];
}

function withToolCalled(toolbox: readonly ToolboxEntry[], name: string): readonly ToolboxEntry[] {
  const known = addBuiltinTool(toolbox, name);
  return known.map((entry) => (entry.name === name ? { ...entry, uses: entry.uses + 1 } : entry));
}

function withToolChanged(toolbox: readonly ToolboxEntry[], change: EventOf<'toolbox-change'>): readonly ToolboxEntry[] {
  const entry: ToolboxEntry = { name: change.tool, status: change.status, uses: change.uses, revisions: change.revisions, lastChange: change };
  const index = toolbox.findIndex((existing) => existing.name === change.tool);
  if (index === -1) return [...toolbox, entry];
  return toolbox.map((existing, position) => (position === index ? entry : existing));
}

function addModelCall(totals: RunTotals, call: EventOf<'model-call'>): RunTotals {
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
function withoutFinishedCall(inFlight: readonly ModelCallInFlight[], finished: EventOf<'model-call'> | EventOf<'model-error'>): readonly ModelCallInFlight[] {
  if (inFlight.length === 0) return inFlight;
  const match = inFlight.findIndex((call) => call.model === finished.model && call.iteration === finished.iteration);
  const index = match === -1 ? 0 : match;
  return inFlight.filter((_, position) => position !== index);
}
