import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../src/core/index.js';
import { SYNTHESIS_EVENT_TYPES } from '../src/runs/run-log/index.js';
import { allRunsStats, newestRunStats, runLogStats, runLogsStats, storedRunStats } from '../src/stats/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { fillSyntheticRuns, type SyntheticRunSet } from './support/synthetic-runs.js';

/**
 * The same figures from two sources: `forge stats` over the store (aggregate SQL plus the synthesis
 * events) and over the run logs (every event recomputed), for a series of runs written to both the
 * way the run service and its recorder write them.
 */
describe('stats from the store', () => {
  let home: string;
  let written: SyntheticRunSet;
  let store: Store;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-stats-store-'));
    written = await fillSyntheticRuns(home, 420, { unfinished: 2 });
    store = await openStore({ url: path.join(home, 'forge.db') });
  });
  afterAll(async () => {
    await store?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('adds up every stored run to exactly the figures the run logs give, key order included', async () => {
    const fromStore = await allRunsStats(store);
    const fromLogs = await runLogsStats(written.logFiles);

    expect(fromStore).toBeDefined();
    expect(fromStore!.files).toEqual(written.logFiles);
    expect(fromStore!.errors).toEqual([]);
    // The database sums dollars in another order than a pass over events: equal to the last few bits.
    expect(JSON.stringify(withCostsRounded(fromStore!.totals))).toBe(JSON.stringify(withCostsRounded(fromLogs.totals)));
    // The series exercises every figure: syntheses caught and reused, failures, unknown prices, unfinished runs.
    expect(fromStore!.totals).toMatchObject({ runs: 420, cost_usd: null, halts_by_reason: { unfinished: 2 } });
    expect(fromStore!.totals.synthesis).toMatchObject({ drafted: 17, caught: expect.any(Number), tool_uses: expect.any(Number) });
    expect(fromStore!.totals.synthesis.caught).toBeGreaterThan(0);
    expect(fromStore!.totals.synthesis.tool_uses).toBeGreaterThan(fromStore!.totals.synthesis.drafted);
    expect(fromStore!.totals.tool_errors).toBeGreaterThan(0);
    // Tool analytics: the database's window-function percentiles are exactly the ones a sort of every logged duration gives.
    expect(fromStore!.tools).toEqual(fromLogs.tools);
    expect(fromStore!.tools.map((tool) => tool.tool).sort()).toEqual(['count_links', 'csv_columns', 'http_request', 'read_url', 'release_version', 'web_search', 'word_count']);
    expect(fromStore!.tools.reduce((sum, tool) => sum + tool.calls, 0)).toBe(fromStore!.totals.tool_calls);
    expect(fromStore!.tools.reduce((sum, tool) => sum + tool.failures, 0)).toBe(fromStore!.totals.tool_errors);
    expect(fromStore!.tools.reduce((sum, tool) => sum + tool.cache_hits, 0)).toBeGreaterThan(0);
    for (const tool of fromStore!.tools) expect(tool.p50_ms!).toBeLessThanOrEqual(tool.p95_ms!);
  });

  it('gives each run the figures its log gives, and a run still going shows as running', async () => {
    for (const index of [0, 25, 33, 50, 51, 100, 417]) {
      const logFile = written.logFiles[index]!;
      const fromLog = await runLogStats(logFile);
      const fromStore = await storedRunStats(store, fromLog.totals.run_id!);
      expect(fromStore?.file).toBe(logFile);
      expect(JSON.stringify(withCostsRounded(fromStore!.totals))).toBe(JSON.stringify(withCostsRounded(fromLog.totals)));
      expect(fromStore!.tools).toEqual(fromLog.tools);
    }

    const newest = await newestRunStats(store);
    const newestLog = await runLogStats(written.logFiles.at(-1)!);
    expect(newest).toMatchObject({ file: written.logFiles.at(-1), totals: { run_id: newestLog.totals.run_id, status: 'running', halt_reason: null, duration_ms: null } });
    // The log has no run-end yet, so it cannot say; the store's row says the run is going.
    expect(newestLog.totals.status).toBeNull();
    expect(withCostsRounded({ ...newest!.totals, status: null })).toEqual(withCostsRounded(newestLog.totals));
    expect(await storedRunStats(store, 'run-unknown')).toBeUndefined();
  });

  it('reads only the synthesis events, never a run\'s whole event list', async () => {
    const eventLists = vi.spyOn(store.events, 'list');
    const typedReads = vi.spyOn(store.stats, 'eventsOfTypes');
    try {
      await allRunsStats(store);
      expect(eventLists).not.toHaveBeenCalled();
      expect(typedReads.mock.calls).toEqual([[SYNTHESIS_EVENT_TYPES]]);
    } finally {
      eventLists.mockRestore();
      typedReads.mockRestore();
    }
  });

  it('keeps tool and model names such as __proto__ ordinary keys', async () => {
    const named = await openStore({ url: ':memory:' });
    try {
      await named.runs.create({ id: 'run-names', task: 'awkward names', model: '__proto__', conversationId: null });
      await named.modelCalls.record({ runId: 'run-names', model: '__proto__', purpose: 'agent', inputTokens: 10, outputTokens: 2, costUsd: null, latencyMs: 5, inputHash: 'sha256:1', ts: '2026-01-01T00:00:00.000Z' });
      await named.steps.recordAll(['__proto__', 'constructor', 'toString'].map((tool, index) => ({ runId: 'run-names', index, callId: `call_${index}`, tool, input: {}, output: 'ok', error: null, durationMs: 1 })));
      await named.events.append({ ts: '2026-01-01T00:00:01.000Z', run_id: 'run-names', seq: 0, type: 'synthesis-end', tool: 'constructor', status: 'promoted', revisions: 0, llm_calls: 2, tokens: { input: 30, output: 6 }, cost_usd: null, flagged: false, failures: [] });

      const run = (await storedRunStats(named, 'run-names'))!.totals;
      const all = (await allRunsStats(named))!.totals;

      expect(Object.entries(run.tools)).toEqual([['__proto__', 1], ['constructor', 1], ['toString', 1]]);
      expect(Object.keys(run.per_model)).toEqual(['__proto__']);
      expect(Object.keys(run.syntheses)).toEqual(['constructor']);
      expect(Object.keys(all.per_model)).toEqual(['__proto__']);
      expect(all.synthesis).toMatchObject({ drafted: 1, tool_uses: 1, per_tool: { constructor: { status: 'promoted', llm_calls: 2 } } });
    } finally {
      await named.close();
    }
  });

  it('says there is nothing to add up when the store holds no run', async () => {
    const empty = await openStore({ url: ':memory:' });
    try {
      expect(await allRunsStats(empty)).toBeUndefined();
      expect(await newestRunStats(empty)).toBeUndefined();
    } finally {
      await empty.close();
    }
  });
});

/** `value` with every `cost_usd` rounded to 12 decimals (dollars summed in another order differ in the last bits). */
function withCostsRounded(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withCostsRounded);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, (key === 'cost_usd' || key === 'cost_usd_known') && typeof entry === 'number' ? Number(entry.toFixed(12)) : withCostsRounded(entry)]),
  );
}
