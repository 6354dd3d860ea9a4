import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc, modelCall, newRun, rejectionOf, runStartEvent, textEvent } from './contract-fixtures.js';
import { stateOf } from './run-states-contract.js';

/** `Store.runs`: creating, updating, getting and listing runs. */
export function describeRunsContract(context: StoreContractContext): void {
  describe('runs', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('creates a running run with nothing spent yet, and gets it back', async () => {
      const created = await store.runs.create({ id: 'run-1', task: 'find the 日本語 docs', model: 'openai:gpt-4.1-mini', conversationId: 'conversation-1' });

      expect(created).toEqual({
        id: 'run-1',
        kind: 'agent',
        task: 'find the 日本語 docs',
        model: 'openai:gpt-4.1-mini',
        status: 'running',
        haltReason: null,
        answer: null,
        conversationId: 'conversation-1',
        llmCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        pricedCostUsd: 0,
        unpricedCalls: 0,
        error: null,
        owner: null,
        logFile: null,
        userId: null,
        apiKeyId: null,
        agent: null,
        createdAt: expect.stringMatching(isoUtc),
        updatedAt: created.createdAt,
      });
      expect(await store.runs.get('run-1')).toEqual(created);
    });

    it('keeps what a run is, who runs it and where its log is, and lists runs by status', async () => {
      const owner = { pid: 4242, host: 'worker-a' };
      const replay = await store.runs.create({ id: 'run-skill', task: 'skill notes: tides', model: 'none', conversationId: null, kind: 'skill', owner, logFile: '/home/forge/runs/x-run-skill.jsonl' });
      await store.runs.create({ id: 'run-call', task: 'tool read_url', model: 'none', conversationId: null, kind: 'tool-call', owner });
      await store.runs.update('run-call', { status: 'completed', haltReason: 'final_answer' });

      expect(replay).toMatchObject({ kind: 'skill', owner, logFile: '/home/forge/runs/x-run-skill.jsonl' });
      expect((await store.runs.list({ statuses: ['running', 'waiting'] })).map((run) => run.id)).toEqual(['run-skill']);
      expect((await store.runs.list({ statuses: ['completed'] })).map((run) => [run.id, run.kind])).toEqual([['run-call', 'tool-call']]);
      expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-call', 'run-skill']);
    });

    it('keeps the account that started a run, and lists one account\'s runs (with or without those stored without one)', async () => {
      await store.runs.create(newRun('run-none'));
      await store.runs.create({ ...newRun('run-ada'), userId: 'ada' });
      await store.runs.create({ ...newRun('run-bob'), userId: 'bob' });

      expect((await store.runs.get('run-ada'))?.userId).toBe('ada');
      expect((await store.runs.list({ ownedBy: { userId: 'ada', includeUnowned: false } })).map((run) => run.id)).toEqual(['run-ada']);
      expect((await store.runs.list({ ownedBy: { userId: 'ada', includeUnowned: true }, statuses: ['running'] })).map((run) => run.id)).toEqual(['run-ada', 'run-none']);
      expect((await store.runs.list({ ownedBy: { userId: 'bob', includeUnowned: false }, before: 'run-bob' })).map((run) => run.id)).toEqual([]);
    });

    it('queues a run for a worker, which claims it once, with the run log on its own disk', async () => {
      const queued = await store.runs.create({ ...newRun('run-queued'), status: 'queued' });
      const workers = [{ pid: 11, host: 'worker-a' }, { pid: 12, host: 'worker-b' }];

      const claims = await Promise.all(workers.map((owner) => store.runs.claim('run-queued', owner, ['queued'], { logFile: `/var/forge/${owner.host}/run-queued.jsonl` })));

      expect(queued).toMatchObject({ status: 'queued', owner: null, logFile: null });
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = workers[claims.indexOf(true)]!;
      expect(await store.runs.get('run-queued')).toMatchObject({ status: 'running', owner: winner, logFile: `/var/forge/${winner.host}/run-queued.jsonl` });
      expect((await store.runs.list({ statuses: ['queued'] })).map((run) => run.id)).toEqual([]);
    });

    it('gets nothing for an unknown id', async () => {
      expect(await store.runs.get('missing')).toBeUndefined();
    });

    it('updates only the given fields and keeps the rest', async () => {
      const created = await store.runs.create(newRun('run-1'));

      const finished = await store.runs.update('run-1', {
        status: 'completed',
        haltReason: 'final_answer',
        answer: 'Paris — capitale 🇫🇷',
        llmCalls: 3,
        inputTokens: 1200,
        outputTokens: 345,
        costUsd: 0.00123,
      });

      expect(finished).toEqual({
        ...created,
        status: 'completed',
        haltReason: 'final_answer',
        answer: 'Paris — capitale 🇫🇷',
        llmCalls: 3,
        inputTokens: 1200,
        outputTokens: 345,
        costUsd: 0.00123,
        updatedAt: expect.stringMatching(isoUtc),
      });
      expect(finished.updatedAt >= created.createdAt).toBe(true);
      expect(await store.runs.get('run-1')).toEqual(finished);

      const priced = await store.runs.update('run-1', { costUsd: null, pricedCostUsd: 0.00045, unpricedCalls: 2, error: 'model price unknown' });
      expect(priced).toMatchObject({ costUsd: null, pricedCostUsd: 0.00045, unpricedCalls: 2 });
      expect(priced.error).toBe('model price unknown');
      expect(priced.answer).toBe('Paris — capitale 🇫🇷');
      expect(await store.runs.get('run-1')).toMatchObject({ costUsd: null, pricedCostUsd: 0.00045, unpricedCalls: 2 });
    });

    it('refuses to update a run that does not exist, and creates none', async () => {
      const error = await rejectionOf(store.runs.update('missing', { status: 'failed' }));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ name: 'NotFoundError', kind: 'run', id: 'missing' });
      expect(await store.runs.list()).toEqual([]);
    });

    it('refuses a second run with the same id and keeps the first', async () => {
      const first = await store.runs.create(newRun('run-1'));

      const error = await rejectionOf(store.runs.create({ ...newRun('run-1'), task: 'another task' }));

      expect(error).toBeInstanceOf(DuplicateRecordError);
      expect(error).toMatchObject({ kind: 'run', key: { id: 'run-1' } });
      expect(await store.runs.list()).toEqual([first]);
    });

    it('lists runs newest first, up to the limit', async () => {
      for (const id of ['run-a', 'run-b', 'run-c']) {
        await store.runs.create(newRun(id));
      }

      expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-c', 'run-b', 'run-a']);
      expect((await store.runs.list({ limit: 2 })).map((run) => run.id)).toEqual(['run-c', 'run-b']);
      expect(await store.runs.list({ limit: 0 })).toEqual([]);
    });

    it('refuses a limit that is negative or fractional rather than returning other rows', async () => {
      await store.runs.create(newRun('run-1'));

      await expect(store.runs.list({ limit: -1 })).rejects.toThrow(RangeError);
      await expect(store.runs.list({ limit: 1.5 })).rejects.toThrow(RangeError);
    });

    it('finds runs by a prefix of their id, newest first, up to the limit, taking the prefix literally and case-sensitively', async () => {
      for (const id of ['3f2c9a1b7e40', '3f2c00000000', '3e000000000a', 'run_1', 'runx1', 'RUN-1']) await store.runs.create(newRun(id));

      expect((await store.runs.findByIdPrefix('3f2c', 10)).map((run) => run.id)).toEqual(['3f2c00000000', '3f2c9a1b7e40']);
      expect((await store.runs.findByIdPrefix('3f2c', 1)).map((run) => run.id)).toEqual(['3f2c00000000']);
      expect((await store.runs.findByIdPrefix('3f2c9a1b7e40', 10)).map((run) => run.id)).toEqual(['3f2c9a1b7e40']);
      expect((await store.runs.findByIdPrefix('3', 10)).map((run) => run.id)).toEqual(['3e000000000a', '3f2c00000000', '3f2c9a1b7e40']);
      // `_` and `%` are characters of the id, not wildcards; case counts.
      expect((await store.runs.findByIdPrefix('run_', 10)).map((run) => run.id)).toEqual(['run_1']);
      expect((await store.runs.findByIdPrefix('%', 10)).map((run) => run.id)).toEqual([]);
      expect((await store.runs.findByIdPrefix('RUN', 10)).map((run) => run.id)).toEqual(['RUN-1']);
      expect(await store.runs.findByIdPrefix('', 10)).toEqual([]);
      expect(await store.runs.findByIdPrefix('4', 10)).toEqual([]);
    });

    it('deletes a run with its events, steps, model calls, run state and approvals, and leaves other runs whole', async () => {
      for (const id of ['run-gone', 'run-kept']) {
        await store.runs.create(newRun(id));
        await store.events.appendAll([runStartEvent(id, 0), textEvent(id, 1, `text of ${id}`)]);
        await store.steps.record({ runId: id, index: 0, callId: 'call-1', tool: 'web_search', input: { query: id }, output: 'results', error: null, durationMs: 12 });
        await store.modelCalls.record(modelCall({ runId: id }));
        await store.runStates.save(stateOf(id, 1));
        await store.approvals.request({ runId: id, callId: 'call_1', tool: 'http_request', inputDigest: 'ab'.repeat(32), reason: 'high risk', expiresAt: null });
      }
      const kept = await Promise.all([store.runs.get('run-kept'), store.events.list('run-kept'), store.steps.list('run-kept'), store.modelCalls.list('run-kept'), store.runStates.get('run-kept'), store.approvals.list({ runId: 'run-kept' })]);

      expect(await store.runs.delete('run-gone')).toBe(true);

      expect(await store.runs.get('run-gone')).toBeUndefined();
      expect(await store.events.list('run-gone')).toEqual([]);
      expect(await store.steps.list('run-gone')).toEqual([]);
      expect(await store.modelCalls.list('run-gone')).toEqual([]);
      expect(await store.runStates.get('run-gone')).toBeUndefined();
      expect(await store.approvals.list({ runId: 'run-gone' })).toEqual([]);
      expect(await Promise.all([store.runs.get('run-kept'), store.events.list('run-kept'), store.steps.list('run-kept'), store.modelCalls.list('run-kept'), store.runStates.get('run-kept'), store.approvals.list({ runId: 'run-kept' })])).toEqual(kept);
      expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-kept']);
    });

    it('deletes nothing for an unknown id', async () => {
      await store.runs.create(newRun('run-1'));

      expect(await store.runs.delete('missing')).toBe(false);
      expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-1']);
    });
  });
}
