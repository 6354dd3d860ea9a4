import type { ToolCallRecord, ToolUsageRecord } from '../core/index.js';

/** The `p`-th percentile (0 < p ≤ 100) of ascending `sorted` by nearest rank: its ⌈p·n/100⌉-th value; null when empty. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
}

interface ToolTally {
  calls: number;
  failures: number;
  cacheHits: number;
  bytesIn: number;
  bytesOut: number;
  /** Durations of the calls the cache did not answer. */
  readonly durations: number[];
}

/**
 * Tool-call analytics added up from rows fed in call order (oldest run first), computed as the store
 * computes them (see `StatsStore.summarize`): tools in the order of their first call, percentiles by
 * nearest rank over the calls the cache did not answer. Holds one number per such call.
 */
export class ToolUsageTally {
  private readonly tools = new Map<string, ToolTally>();

  add(call: Pick<ToolCallRecord, 'tool' | 'ok' | 'cached' | 'durationMs' | 'bytesIn' | 'bytesOut'>): void {
    const tally = this.tallyOf(call.tool);
    tally.calls += 1;
    if (!call.ok) tally.failures += 1;
    if (call.cached) tally.cacheHits += 1;
    else tally.durations.push(call.durationMs);
    tally.bytesIn += call.bytesIn;
    tally.bytesOut += call.bytesOut;
  }

  /** Adds a later run's (or runs') tally to this one. */
  merge(other: ToolUsageTally): void {
    for (const [tool, theirs] of other.tools) {
      const tally = this.tallyOf(tool);
      tally.calls += theirs.calls;
      tally.failures += theirs.failures;
      tally.cacheHits += theirs.cacheHits;
      tally.bytesIn += theirs.bytesIn;
      tally.bytesOut += theirs.bytesOut;
      for (const duration of theirs.durations) tally.durations.push(duration);
    }
  }

  usage(): ToolUsageRecord[] {
    return [...this.tools].map(([tool, tally]) => {
      const sorted = [...tally.durations].sort((left, right) => left - right);
      return {
        tool,
        calls: tally.calls,
        failures: tally.failures,
        cacheHits: tally.cacheHits,
        p50Ms: nearestRank(sorted, 50),
        p95Ms: nearestRank(sorted, 95),
        bytesIn: tally.bytesIn,
        bytesOut: tally.bytesOut,
      };
    });
  }

  private tallyOf(tool: string): ToolTally {
    let tally = this.tools.get(tool);
    if (tally === undefined) {
      tally = { calls: 0, failures: 0, cacheHits: 0, bytesIn: 0, bytesOut: 0, durations: [] };
      this.tools.set(tool, tally);
    }
    return tally;
  }
}
