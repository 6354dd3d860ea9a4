import type { EventOf, ForgeEvent, LiveEvent } from '../../core/index.js';
import { emptyRunView, type ModelCallInFlight, type RunTotals, type RunView, type ToolboxEntry as RunToolboxEntry, type ToolboxStatus } from '../../contract/index.js';

export type { ModelCallInFlight, ToolboxStatus };
/** The run's totals the footer shows (`unpricedCalls` > 0: the dollar figure is a lower bound, shown as such). */
export type ViewTotals = RunTotals;

/** What the view is built from: the run's events, and while it is watched live, its live events. */
export type ViewEvent = ForgeEvent | LiveEvent;

/** One row of the Toolbox panel: the run view's toolbox entry (see `ToolboxEntry` in src/contract). */
export type ToolboxEntry = Omit<RunToolboxEntry, 'lastChange'>;

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

/**
 * Everything the terminal UI shows, derived from the events of one run and nothing else (plus, live, the
 * text streaming in, which only the live view receives): what it selects from the run view (the fold
 * shared with the web UI), its recent events and the streaming draft. The same state
 * is produced whether the events arrive live from the bus or from a recorded file, which is what lets the
 * replay viewer and the live view share one renderer. Times are taken from the events' `ts`, never from
 * the wall clock, so a state is a pure function of its events.
 */
export interface ViewState {
  /** The run view all the rest but `stream` and `draft` is selected from. */
  readonly run: RunView;
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
  run: emptyRunView,
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
