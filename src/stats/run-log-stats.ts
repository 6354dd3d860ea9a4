import { aggregateTotals, readRunLog, totalsFromEvents } from '../runlog/index.js';
import { mapBounded } from './map-bounded.js';
import { runStatsOf, type AggregateStats, type RunStats } from './stats-report.js';

/**
 * At most this many run logs are open at once, however many are given: far below any file-handle limit
 * (macOS starts processes with 256), and enough to keep the disk busy.
 */
export const RUN_LOGS_OPEN_AT_ONCE = 8;

/** One run log's figures, recomputed from its events. A missing file throws `NotFoundError`. */
export async function runLogStats(file: string): Promise<RunStats> {
  const read = await readRunLog(file);
  return runStatsOf(file, totalsFromEvents(read.events), read.error);
}

/**
 * Several run logs added up, in the order given. At most `RUN_LOGS_OPEN_AT_ONCE` logs are read at a
 * time, and each is reduced to its totals as soon as it is read, so open files and memory stay bounded
 * whatever the number of logs. A missing file throws `NotFoundError` (no further log is opened).
 */
export async function runLogsStats(files: readonly string[]): Promise<AggregateStats> {
  const runs = await mapBounded(files, RUN_LOGS_OPEN_AT_ONCE, runLogStats);
  return {
    files,
    totals: aggregateTotals(runs.map((run) => run.totals)),
    errors: runs.flatMap((run) => (run.error === undefined ? [] : [run.error])),
  };
}
