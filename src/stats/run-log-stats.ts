import type { ForgeEvent } from '../core/index.js';
import { StoreRowDeriver, aggregateTotals, readRunLog, totalsFromEvents } from '../runs/run-log/index.js';
import { mapBounded } from './map-bounded.js';
import { runStatsOf, toolFiguresOf, type AggregateStats, type RunStats } from './stats-report.js';
import { ToolUsageTally } from './tool-usage-tally.js';

/**
 * At most this many run logs are open at once, however many are given: far below any file-handle limit
 * (macOS starts processes with 256), and enough to keep the disk busy.
 */
export const RUN_LOGS_OPEN_AT_ONCE = 8;

/** One run log's figures, recomputed from its events. A missing file throws `NotFoundError`. */
export async function runLogStats(file: string): Promise<RunStats> {
  return (await readRunLogFigures(file)).stats;
}

/** A run log's figures, and its tool calls tallied (so several logs' percentiles can be taken together). */
async function readRunLogFigures(file: string): Promise<{ readonly stats: RunStats; readonly toolCalls: ToolUsageTally }> {
  const read = await readRunLog(file);
  const toolCalls = toolCallsOf(read.events);
  return { stats: runStatsOf(file, totalsFromEvents(read.events), toolCalls.usage(), read.error), toolCalls };
}

/** The tool-call rows the store would hold for these events (one run's), tallied. */
function toolCallsOf(events: readonly ForgeEvent[]): ToolUsageTally {
  const tally = new ToolUsageTally();
  for (const call of new StoreRowDeriver(events[0]?.run_id ?? '').derive(events).toolCalls) tally.add(call);
  return tally;
}

/**
 * Several run logs added up, in the order given. At most `RUN_LOGS_OPEN_AT_ONCE` logs are read at a
 * time, and each is reduced to its totals as soon as it is read, so open files stay bounded whatever
 * the number of logs, and memory holds one number per tool call (the durations the percentiles need). A missing file throws `NotFoundError` (no further log is opened).
 */
export async function runLogsStats(files: readonly string[]): Promise<AggregateStats> {
  const runs = await mapBounded(files, RUN_LOGS_OPEN_AT_ONCE, readRunLogFigures);
  const toolCalls = new ToolUsageTally();
  for (const run of runs) toolCalls.merge(run.toolCalls);
  return {
    files,
    totals: aggregateTotals(runs.map((run) => run.stats.totals)),
    tools: toolFiguresOf(toolCalls.usage()),
    errors: runs.flatMap((run) => (run.stats.error === undefined ? [] : [run.stats.error])),
  };
}
