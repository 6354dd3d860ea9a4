import { NotFoundError, type Store } from '../core/index.js';
import { runLogStats, runLogsStats } from './run-log-stats.js';
import type { AggregateStats, RunStats } from './stats-report.js';
import { allRunsStats, newestRunStats, storedRunStats } from './stored-stats.js';

/** What `forge stats` was asked for: run log files to read instead of the store, and whether to add up every run. */
export interface StatsRequest {
  readonly files: readonly string[];
  readonly all: boolean;
  /** One stored run, by id or unique id prefix. */
  readonly run?: string;
}

/** One run's figures, or many runs added up, with where they came from. */
export type StatsAnswer = { readonly scope: 'run'; readonly stats: RunStats } | { readonly scope: 'runs'; readonly source: 'run logs' | 'stored runs'; readonly stats: AggregateStats };

/** The figures of stored runs, summed by the store. */
export class StatsService {
  /** `location` names the store in the error that says it holds no run (its database URL). */
  constructor(
    private readonly store: Store,
    private readonly location: string,
  ) {}

  /** The newest stored run's figures; `NotFoundError` when no run is stored. */
  async newestRun(): Promise<RunStats> {
    return this.found(await newestRunStats(this.store));
  }

  /** One stored run's figures, by id or unique id prefix (see `resolveRun`). */
  async run(reference: string): Promise<RunStats> {
    // Loaded on use: the run service's module graph is larger than `forge stats` otherwise needs.
    const { resolveRun } = await import('../runs/index.js');
    const run = await resolveRun(this.store.runs, reference);
    return (await storedRunStats(this.store, run.id))!;
  }

  /** Every stored run added up; `NotFoundError` when no run is stored. */
  async allRuns(): Promise<AggregateStats> {
    return this.found(await allRunsStats(this.store));
  }

  private found<Stats>(stats: Stats | undefined): Stats {
    if (stats === undefined) throw new NotFoundError('stored run', this.location, 'Run `forge run "<task>"` first, or pass a run log file.');
    return stats;
  }
}

/**
 * Answers a `forge stats` request: one run log file gives that run's figures, several files (or `all`
 * with files) their totals; without files, every stored run with `all`, else the newest. The store is
 * opened (by `openStats`, closed again here) only when no file is given.
 */
export async function answerStats(request: StatsRequest, openStats: () => Promise<{ readonly stats: StatsService; close(): Promise<void> }>): Promise<StatsAnswer> {
  if (request.files.length === 1 && !request.all) return { scope: 'run', stats: await runLogStats(request.files[0]!) };
  if (request.files.length > 0) return { scope: 'runs', source: 'run logs', stats: await runLogsStats(request.files) };
  const opened = await openStats();
  try {
    if (request.run !== undefined) return { scope: 'run', stats: await opened.stats.run(request.run) };
    return request.all ? { scope: 'runs', source: 'stored runs', stats: await opened.stats.allRuns() } : { scope: 'run', stats: await opened.stats.newestRun() };
  } finally {
    await opened.close();
  }
}
