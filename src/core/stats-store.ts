import type { EventOf, EventType, HaltReason } from './events.js';

/** Which stored runs a stats read covers: the one run `runId` names, or every stored run when absent. */
export interface StatsScope {
  readonly runId?: string;
}

/** How many runs in scope ended with one halt reason; `null` counts the runs that have not ended (running, waiting). */
export interface HaltCount {
  readonly haltReason: HaltReason | null;
  readonly runs: number;
}

/** What the model calls of the runs in scope add up to for one model. */
export interface ModelUsageRecord {
  readonly model: string;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Null when any of the calls had no known price: never a partial sum. */
  readonly costUsd: number | null;
  /** What the priced calls add up to: the known part of `costUsd`. */
  readonly pricedCostUsd: number;
  /** How many of the calls had no known price. */
  readonly unpricedCalls: number;
}

/** How often the runs in scope called one tool (their steps), and how many of those calls failed. */
export interface ToolCallCount {
  readonly tool: string;
  readonly calls: number;
  readonly errors: number;
}

/**
 * One dispatched tool call, as the `tool_calls` analytics table holds it: one row per call that got a
 * result or an error (refusals included), written with the run's events.
 */
export interface ToolCallRecord {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly ok: boolean;
  /** The error's stable name (`ToolTimeoutError`, `PolicyBlockedError`, …); null for a success, and for failures recorded before the table existed. */
  readonly errorName: string | null;
  /** Answered from the run's result cache. */
  readonly cached: boolean;
  readonly durationMs: number;
  /** UTF-8 bytes of the call's input as JSON. */
  readonly bytesIn: number;
  /** UTF-8 bytes of the output the model was shown, or of the error message. */
  readonly bytesOut: number;
  /** When the call ended (ISO-8601 UTC). */
  readonly at: string;
}

/** How one tool fared over the runs in scope. */
export interface ToolUsageRecord {
  readonly tool: string;
  readonly calls: number;
  readonly failures: number;
  readonly cacheHits: number;
  /**
   * The median and 95th percentile duration of its calls that were not answered from the cache, by
   * nearest rank (the ⌈p·n⌉-th shortest of n); null when every call was a cache hit.
   */
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

/** The aggregate figures of the runs in scope, read together, so they describe the same runs. */
export interface RunsSummary {
  /** In the order of each halt reason's first run (oldest first). Empty exactly when no run is in scope. */
  readonly halts: readonly HaltCount[];
  /** In the order of each model's first call (oldest run first, then within the run). */
  readonly models: readonly ModelUsageRecord[];
  /** In the order of each tool's first call (oldest run first, then within the run). */
  readonly tools: readonly ToolCallCount[];
  /** From the tool-call analytics, in the order of each tool's first call (oldest run first, then within the run). */
  readonly toolUsage: readonly ToolUsageRecord[];
}

/**
 * Aggregate reads over stored runs (what `forge stats` shows), answered by the database: a summary
 * is grouped and summed there, so what comes back grows with the number of distinct halt reasons,
 * models and tools, not with the number of runs. Only records of stored runs count (a model call
 * whose run was never stored is in no figure). "Oldest" means the order runs were created in.
 */
export interface StatsStore {
  summarize(scope?: StatsScope): Promise<RunsSummary>;
  /** The run logs of the runs in scope, oldest run first; runs stored without a log are left out. */
  runLogFiles(scope?: StatsScope): Promise<string[]>;
  /**
   * The events of the runs in scope whose type is one of `types`: oldest run first, each run's in
   * `seq` order, returned as stored (not re-validated). Read a page at a time, so memory holds one
   * page however many events match.
   */
  eventsOfTypes<Type extends EventType>(types: readonly Type[], scope?: StatsScope): AsyncIterable<EventOf<Type>>;
}
