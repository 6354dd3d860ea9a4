import type { EventOf, ForgeEvent, LiveEvent } from '../../core/index.js';

/** What the view is built from: the run's events, and while it is watched live, its live events. */
export type ViewEvent = ForgeEvent | LiveEvent;

/** A synthesized tool's lifecycle state, or `builtin` for a tool the run started with. */
export type ToolboxStatus = 'builtin' | EventOf<'toolbox-change'>['status'];

/**
 * One row of the Toolbox panel. Tools are listed in the order they first appeared and are never removed:
 * a tool that failed verification stays, because the graveyard is part of the story.
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
}

export type PlanStep = EventOf<'plan-update'>['steps'][number];
export type ConvergenceCheck = EventOf<'convergence-check'>;

/**
 * The text of the model call in flight so far, from its `assistant-text-delta` live events. It is
 * dropped when the call ends: the `assistant-text` that follows holds the whole text.
 */
export interface TextDraft {
  readonly iteration: number;
  readonly text: string;
}

/** A model call that has started and not yet finished; the footer shows it with a spinner. */
export interface ModelCallInFlight {
  readonly model: string;
  readonly iteration: number;
  readonly startedAtMs: number;
}

/**
 * Running totals of the run. Counted from the `model-call` events themselves, never taken from the run's
 * own summary, so what the footer shows is what the log proves. `unpricedCalls` counts calls whose cost
 * was unknown (`cost_usd: null`): the run's cost is then unknown, and `costUsd` only its known part.
 */
export interface ViewTotals {
  readonly modelCalls: number;
  readonly failedModelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly unpricedCalls: number;
}

/**
 * Everything the terminal UI shows, derived from the events of one run and nothing else (plus, live, the
 * text streaming in, which only the live view receives). The same state
 * is produced whether the events arrive live from the bus or from a recorded file, which is what lets the
 * replay viewer and the live view share one renderer. Times are taken from the events' `ts`, never from
 * the wall clock, so a state is a pure function of its events.
 */
export interface ViewState {
  readonly runId: string | null;
  readonly task: string | null;
  readonly model: string | null;
  readonly startedAtMs: number | null;
  readonly lastEventAtMs: number | null;
  readonly eventCount: number;
  readonly toolbox: readonly ToolboxEntry[];
  readonly plan: readonly PlanStep[];
  readonly convergence: ConvergenceCheck | null;
  readonly totals: ViewTotals;
  readonly modelCallsInFlight: readonly ModelCallInFlight[];
  /** The most recent events, oldest first, at most `streamCapacity` of them. */
  readonly stream: readonly ForgeEvent[];
  /** The model's text as it streams in, shown below the newest event; null between model calls and in a replay. */
  readonly draft: TextDraft | null;
  readonly end: EventOf<'run-end'> | null;
}

/** How many recent events the stream keeps; a terminal never shows more than a screenful anyway. */
export const streamCapacity = 500;

export const emptyViewState: ViewState = {
  runId: null,
  task: null,
  model: null,
  startedAtMs: null,
  lastEventAtMs: null,
  eventCount: 0,
  toolbox: [],
  plan: [],
  convergence: null,
  totals: { modelCalls: 0, failedModelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
  modelCallsInFlight: [],
  stream: [],
  draft: null,
  end: null,
};
