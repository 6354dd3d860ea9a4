import type { RunLogError, ToolUsageRecord } from '../core/index.js';
import { aggregateTotals, type AggregateTotals, type RunTotals } from '../runs/run-log/index.js';

/** Synthesis figures: tools drafted, promoted and failed, the catch rate and the reuse ratio. */
export type SynthesisFigures = AggregateTotals['synthesis'];

/** How one tool fared: calls, failures, cache hits, duration percentiles (of the calls the cache did not answer), bytes in and out. */
export interface ToolFigures {
  readonly tool: string;
  readonly calls: number;
  readonly failures: number;
  readonly cache_hits: number;
  readonly p50_ms: number | null;
  readonly p95_ms: number | null;
  readonly bytes_in: number;
  readonly bytes_out: number;
}

/** One run's figures, and its run log. */
export interface RunStats {
  /** The run log that was read, or the stored run's log (null when the store does not know where it is). */
  readonly file: string | null;
  readonly totals: RunTotals;
  /** The run's synthesis figures, counted as `forge stats --all` counts them across runs. */
  readonly synthesis: SynthesisFigures;
  /** Per tool, in the order of each tool's first call. */
  readonly tools: readonly ToolFigures[];
  /** Why reading the run log stopped early; the totals are then those of the events before it. */
  readonly error?: RunLogError;
}

/** Many runs added up, and their run logs. */
export interface AggregateStats {
  /** The run logs that were read, or the logs of the stored runs counted, oldest first. */
  readonly files: readonly string[];
  readonly totals: AggregateTotals;
  /** Per tool, in the order of each tool's first call (oldest run first). */
  readonly tools: readonly ToolFigures[];
  /** Run logs whose reading stopped early (always empty for stored runs). */
  readonly errors: readonly RunLogError[];
}

/** A run's figures from its totals and tool usage, with its synthesis figures. */
export function runStatsOf(file: string | null, totals: RunTotals, tools: readonly ToolUsageRecord[], error?: RunLogError): RunStats {
  return { file, totals, synthesis: aggregateTotals([totals]).synthesis, tools: toolFiguresOf(tools), ...(error === undefined ? {} : { error }) };
}

/** The store's tool usage as `forge stats` reports it (snake_case, like the rest of its figures). */
export function toolFiguresOf(records: readonly ToolUsageRecord[]): ToolFigures[] {
  return records.map((record) => ({
    tool: record.tool,
    calls: record.calls,
    failures: record.failures,
    cache_hits: record.cacheHits,
    p50_ms: record.p50Ms,
    p95_ms: record.p95Ms,
    bytes_in: record.bytesIn,
    bytes_out: record.bytesOut,
  }));
}
