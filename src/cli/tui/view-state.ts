import type { EventOf, ForgeEvent } from '../../core/index.js';

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

/** A model call that has started and not yet finished; the footer shows it with a spinner. */
export interface ModelCallInFlight {
  readonly model: string;
  readonly iteration: number;
  readonly startedAtMs: number;
}

/**
 * Running totals of the run. Counted from the `model-call` events themselves, never taken from the run's
 * own summary, so what the footer shows is what the log proves. `unpricedCalls` counts calls whose cost
 * was unknown (`cost_usd: null`): the dollar figure is then a lower bound and is shown as such.
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
 * Everything the terminal UI shows, derived from the events of one run and nothing else. The same state
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
  end: null,
};
