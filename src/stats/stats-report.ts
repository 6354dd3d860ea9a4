import type { RunLogError } from '../core/index.js';
import type { AggregateTotals, RunTotals } from '../runlog/index.js';

/** One run's figures, and its run log. */
export interface RunStats {
  /** The run log that was read, or the stored run's log (null when the store does not know where it is). */
  readonly file: string | null;
  readonly totals: RunTotals;
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
