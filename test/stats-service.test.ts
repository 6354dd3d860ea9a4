import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatsService, answerStats, runLogsStats } from '../src/stats/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { fillSyntheticRuns, type SyntheticRunSet } from './support/synthetic-runs.js';

/** What `forge stats` asks, answered from the run logs given or from the store, which is opened only when needed and always closed. */
describe('answerStats', () => {
  let home: string;
  let written: SyntheticRunSet;
  let opened: number;
  let closed: number;

  const openStats = (url: string) => async () => {
    opened += 1;
    const store = await openStore({ url });
    return {
      stats: new StatsService(store, url),
      close: async () => {
        closed += 1;
        await store.close();
      },
    };
  };

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-stats-service-'));
    written = await fillSyntheticRuns(home, 30);
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('reads the files given and never opens the store', async () => {
    opened = 0;
    const one = await answerStats({ files: [written.logFiles[3]!], all: false }, openStats(path.join(home, 'forge.db')));
    const several = await answerStats({ files: written.logFiles.slice(0, 5), all: false }, openStats(path.join(home, 'forge.db')));
    const allGiven = await answerStats({ files: [written.logFiles[0]!], all: true }, openStats(path.join(home, 'forge.db')));

    expect(one).toMatchObject({ scope: 'run', stats: { file: written.logFiles[3] } });
    expect(several).toMatchObject({ scope: 'runs', source: 'run logs', stats: { files: written.logFiles.slice(0, 5), totals: { runs: 5 } } });
    expect(allGiven).toMatchObject({ scope: 'runs', source: 'run logs', stats: { totals: { runs: 1 } } });
    expect(opened).toBe(0);
  });

  it('adds up every stored run with all, to the counts of their run logs, and closes the store', async () => {
    opened = 0;
    closed = 0;
    const answer = await answerStats({ files: [], all: true }, openStats(path.join(home, 'forge.db')));
    const fromLogs = await runLogsStats(written.logFiles);

    expect(answer).toMatchObject({ scope: 'runs', source: 'stored runs' });
    // Costs are summed in another order by the database; the counts are exact.
    const { runs, llm_calls, tokens, tool_calls, tool_errors, halts_by_reason } = fromLogs.totals;
    expect(answer.stats.totals).toMatchObject({ runs, llm_calls, tokens, tool_calls, tool_errors, halts_by_reason });
    expect([opened, closed]).toEqual([1, 1]);
  });

  it('says no run is stored, naming the store, and still closes it', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'forge-stats-empty-'));
    const url = path.join(empty, 'forge.db');
    closed = 0;
    try {
      await expect(answerStats({ files: [], all: false }, openStats(url))).rejects.toMatchObject({ name: 'NotFoundError', kind: 'stored run', id: url });
      await expect(answerStats({ files: [], all: true }, openStats(url))).rejects.toMatchObject({ name: 'NotFoundError', kind: 'stored run' });
      expect(closed).toBe(2);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
