import { beforeEach, describe, expect, it } from 'vitest';
import type { QuotaSubject, Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc, modelCall, newRun } from './contract-fixtures.js';

const ada: QuotaSubject = { kind: 'account', id: 'u-ada' };
const adaKey: QuotaSubject = { kind: 'api-key', id: 'k-ada' };
const unlimited = { concurrentRuns: null, runsPerMinute: null, tokensPerDay: null, usdPerDay: null, allowUnpricedModels: false };
const longAgo = '2000-01-01T00:00:00.000Z';

/** `Store.quotas` and `Store.runs.createWithin`: quotas per account and key, the counts they hold to, and atomic admission. */
export function describeQuotasContract(context: StoreContractContext): void {
  describe('quotas', () => {
    let store: Store;
    beforeEach(async () => {
      store = context.subject().store;
      await store.accounts.createUser({ id: 'u-ada', email: 'ada@example.com', passwordHash: 'h', role: 'user' });
      await store.accounts.createUser({ id: 'u-bob', email: 'bob@example.com', passwordHash: 'h', role: 'user' });
    });

    it('sets, replaces, lists and clears the quotas of an account and of its keys, and drops them with the account', async () => {
      expect(await store.quotas.get(ada)).toBeUndefined();
      const set = await store.quotas.set({ subject: ada, userId: 'u-ada', ...unlimited, concurrentRuns: 3, usdPerDay: 1.25 });
      expect(set).toEqual({ subject: ada, userId: 'u-ada', concurrentRuns: 3, runsPerMinute: null, tokensPerDay: null, usdPerDay: 1.25, allowUnpricedModels: false, updatedAt: expect.stringMatching(isoUtc) });
      expect(await store.quotas.get(ada)).toEqual(set);
      const replaced = await store.quotas.set({ subject: ada, userId: 'u-ada', ...unlimited, tokensPerDay: 5_000_000_000, allowUnpricedModels: true });
      expect(await store.quotas.get(ada)).toEqual(replaced);
      await store.quotas.set({ subject: adaKey, userId: 'u-ada', ...unlimited, runsPerMinute: 10 });
      await store.quotas.set({ subject: { kind: 'account', id: 'u-bob' }, userId: 'u-bob', ...unlimited, runsPerMinute: 1 });

      expect((await store.quotas.listForUser('u-ada')).map((quota) => [quota.subject.kind, quota.subject.id])).toEqual([['account', 'u-ada'], ['api-key', 'k-ada']]);
      expect(await store.quotas.clear(adaKey)).toBe(true);
      expect(await store.quotas.clear(adaKey)).toBe(false);
      expect(await store.accounts.deleteUser('u-ada')).toBe(true);
      expect(await store.quotas.get(ada)).toBeUndefined();
      expect(await store.quotas.listForUser('u-bob')).toHaveLength(1);
    });

    it('creates a run within its limits and refuses, creating nothing, the one past them', async () => {
      const limits = [{ subject: ada, concurrentRuns: 2, runsPerMinute: null }];
      expect(await store.runs.createWithin({ ...newRun('r1'), userId: 'u-ada', apiKeyId: 'k-ada' }, limits, longAgo)).toMatchObject({ id: 'r1', status: 'running', userId: 'u-ada', apiKeyId: 'k-ada' });
      expect(await store.runs.createWithin({ ...newRun('r2'), userId: 'u-ada', status: 'queued' }, limits, longAgo)).toMatchObject({ id: 'r2', status: 'queued' });
      // Each subject's runs count against its own limits only.
      expect(await store.runs.createWithin({ ...newRun('b1'), userId: 'u-bob' }, [{ ...limits[0]!, subject: { kind: 'account', id: 'u-bob' } }], longAgo)).toBeDefined();
      expect(await store.runs.createWithin({ ...newRun('r3'), userId: 'u-ada' }, limits, longAgo)).toBeUndefined();
      expect(await store.runs.get('r3')).toBeUndefined();

      // A run that ends (or waits for an approval) is no longer running at once.
      await store.runs.update('r1', { status: 'completed' });
      await store.runs.update('r2', { status: 'waiting' });
      expect(await store.runs.createWithin({ ...newRun('r3'), userId: 'u-ada' }, limits, longAgo)).toBeDefined();
      expect((await store.runs.get('r1'))?.apiKeyId).toBe('k-ada');
    });

    it('counts runs per minute from the window start, and a key\'s runs apart from its account\'s', async () => {
      const perMinute = (subject: QuotaSubject) => [{ subject, concurrentRuns: null, runsPerMinute: 2 }];
      expect(await store.runs.createWithin({ ...newRun('r1'), userId: 'u-ada', apiKeyId: 'k-ada' }, perMinute(adaKey), longAgo)).toBeDefined();
      expect(await store.runs.createWithin({ ...newRun('r2'), userId: 'u-ada' }, perMinute(adaKey), longAgo)).toBeDefined();
      // The key started one run; the account two.
      expect(await store.runs.createWithin({ ...newRun('r3'), userId: 'u-ada', apiKeyId: 'k-ada' }, perMinute(adaKey), longAgo)).toBeDefined();
      expect(await store.runs.createWithin({ ...newRun('r4'), userId: 'u-ada', apiKeyId: 'k-ada' }, perMinute(adaKey), longAgo)).toBeUndefined();
      expect(await store.runs.createWithin({ ...newRun('r4'), userId: 'u-ada' }, perMinute(ada), longAgo)).toBeUndefined();
      // Runs created before the window start do not count.
      const future = new Date(Date.now() + 60_000).toISOString();
      expect(await store.runs.createWithin({ ...newRun('r4'), userId: 'u-ada', apiKeyId: 'k-ada' }, perMinute(adaKey), future)).toBeDefined();
    });

    it('admits exactly as many of many concurrent starts as the limit allows', async () => {
      const limits = [{ subject: ada, concurrentRuns: 3, runsPerMinute: null }];
      const created = await Promise.all(Array.from({ length: 12 }, (_, index) => store.runs.createWithin({ ...newRun(`r${index}`), userId: 'u-ada' }, limits, longAgo)));
      expect(created.filter((run) => run !== undefined)).toHaveLength(3);
      expect(await store.runs.list({ ownedBy: { userId: 'u-ada', includeUnowned: false } })).toHaveLength(3);
    });

    it('reports a subject\'s runs at once and in the window, and today\'s model calls with unknown prices apart', async () => {
      await store.runs.create({ ...newRun('r1'), userId: 'u-ada', apiKeyId: 'k-ada' });
      await store.runs.create({ ...newRun('r2'), userId: 'u-ada', status: 'queued' });
      await store.runs.create({ ...newRun('r3'), userId: 'u-ada' });
      await store.runs.update('r3', { status: 'failed' });
      await store.runs.create({ ...newRun('b1'), userId: 'u-bob' });
      const today = '2026-03-04T00:00:00.000Z';
      await store.modelCalls.recordAll([
        modelCall({ runId: 'r1', inputTokens: 100, outputTokens: 10, costUsd: 0.5, ts: '2026-03-04T01:00:00.000Z' }),
        modelCall({ runId: 'r2', inputTokens: 200, outputTokens: 20, costUsd: null, ts: '2026-03-04T02:00:00.000Z' }),
        modelCall({ runId: 'r3', inputTokens: 300, outputTokens: 30, costUsd: 0.25, ts: '2026-03-04T03:00:00.000Z' }),
        // Yesterday's call and another account's are not Ada's today.
        modelCall({ runId: 'r1', inputTokens: 9_000, outputTokens: 900, costUsd: 9, ts: '2026-03-03T23:59:59.999Z' }),
        modelCall({ runId: 'b1', inputTokens: 7_000, outputTokens: 700, costUsd: 7, ts: '2026-03-04T01:00:00.000Z' }),
      ]);

      const usage = await store.quotas.usage(ada, { runsSince: longAgo, callsSince: today });
      expect(usage).toEqual({ activeRuns: 2, recentRuns: 3, oldestRecentRunAt: expect.stringMatching(isoUtc), llmCalls: 3, tokens: { input: 600, output: 60 }, pricedCostUsd: 0.75, unpricedCalls: 1 });
      expect(await store.quotas.usage(ada, { runsSince: longAgo, callsSince: today, excludeRunId: 'r3' })).toMatchObject({ llmCalls: 2, tokens: { input: 300, output: 30 }, pricedCostUsd: 0.5, unpricedCalls: 1 });
      expect(await store.quotas.usage(adaKey, { runsSince: longAgo, callsSince: today })).toMatchObject({ activeRuns: 1, recentRuns: 1, llmCalls: 1, tokens: { input: 100, output: 10 }, pricedCostUsd: 0.5, unpricedCalls: 0 });
      expect(await store.quotas.usage({ kind: 'account', id: 'u-none' }, { runsSince: new Date().toISOString(), callsSince: today })).toEqual({ activeRuns: 0, recentRuns: 0, oldestRecentRunAt: null, llmCalls: 0, tokens: { input: 0, output: 0 }, pricedCostUsd: 0, unpricedCalls: 0 });
    });

    it('counts a subject\'s runs alone, as a start is admitted against them', async () => {
      await store.runs.create({ ...newRun('r1'), userId: 'u-ada', apiKeyId: 'k-ada' });
      await store.runs.create({ ...newRun('r2'), userId: 'u-ada', status: 'queued' });
      await store.runs.create({ ...newRun('r3'), userId: 'u-ada' });
      await store.runs.update('r3', { status: 'completed' });
      await store.runs.create({ ...newRun('r4'), userId: 'u-ada' });
      await store.runs.update('r4', { status: 'waiting' });
      await store.runs.create({ ...newRun('b1'), userId: 'u-bob' });
      const counts = await store.quotas.runCounts(ada, longAgo);
      expect(counts).toEqual({ activeRuns: 2, recentRuns: 4, oldestRecentRunAt: (await store.runs.get('r1'))?.createdAt });
      expect(await store.quotas.runCounts(adaKey, longAgo)).toEqual({ activeRuns: 1, recentRuns: 1, oldestRecentRunAt: expect.stringMatching(isoUtc) });
      // The same counts as the usage reports.
      expect(await store.quotas.usage(ada, { runsSince: longAgo, callsSince: longAgo })).toMatchObject(counts);
      expect(await store.quotas.runCounts(ada, new Date(Date.now() + 60_000).toISOString())).toEqual({ activeRuns: 2, recentRuns: 0, oldestRecentRunAt: null });
    });
  });
}
