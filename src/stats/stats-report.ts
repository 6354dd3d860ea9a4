import type { RunLogError } from '../core/index.js';
import { aggregateTotals, type AggregateTotals, type RunTotals } from '../runlog/index.js';

/** Synthesis figures: tools drafted, promoted and failed, the catch rate and the reuse ratio. */
export type SynthesisFigures = AggregateTotals['synthesis'];

/** One run's figures, and its run log. */
export interface RunStats {
  /** The run log that was read, or the stored run's log (null when the store does not know where it is). */
  readonly file: string | null;
  readonly totals: RunTotals;
  /** The run's synthesis figures, counted as `forge stats --all` counts them across runs. */
  readonly synthesis: SynthesisFigures;
  /** Why reading the run log stopped early; the totals are then those of the events before it. */
  readonly error?: RunLogError;
}

/** Many runs added up, and their run logs. */
export interface AggregateStats {
  /** The run logs that were read, or the logs of the stored runs counted, oldest first. */
  readonly files: readonly string[];
  readonly totals: AggregateTotals;
  /** Run logs whose reading stopped early (always empty for stored runs). */
  readonly errors: readonly RunLogError[];
}

/** A run's figures from its totals, with its synthesis figures. */
export function runStatsOf(file: string | null, totals: RunTotals, error?: RunLogError): RunStats {
  return { file, totals, synthesis: aggregateTotals([totals]).synthesis, ...(error === undefined ? {} : { error }) };
}
