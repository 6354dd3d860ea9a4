import { beforeEach, describe, expect, it } from 'vitest';
import type { ForgeEvent, NewStep, Store, ToolCallRecord } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { modelCall, newRun, runStartEvent, textEvent } from './contract-fixtures.js';

/** `Store.stats`: aggregate reads over stored runs, answered by the database. */
export function describeStatsContract(context: StoreContractContext): void {
  describe('stats', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    /** A step of `runId`: a failed one when `error` is given. */
    function step(runId: string, index: number, tool: string, error: string | null = null): NewStep {
      return { runId, index, callId: `call-${index}`, tool, input: { index }, output: error === null ? 'ok' : null, error, durationMs: 1 };
    }

    /** A tool-call analytics row of `runId`. */
    function toolCall(runId: string, tool: string, durationMs: number, options: { ok?: boolean; cached?: boolean; bytesIn?: number; bytesOut?: number } = {}): ToolCallRecord {
      const ok = options.ok ?? true;
      return {
        runId,
        callId: `call-${tool}-${durationMs}`,
        tool,
        ok,
        errorName: ok ? null : 'ToolExecutionError',
        cached: options.cached ?? false,
        durationMs,
        bytesIn: options.bytesIn ?? 10,
        bytesOut: options.bytesOut ?? 100,
        at: '2026-01-02T03:04:05.000Z',
      };
    }

    it('summarizes nothing when no run is stored', async () => {
      expect(await store.stats.summarize()).toEqual({ halts: [], models: [], tools: [], toolUsage: [] });
      expect(await store.stats.runLogFiles()).toEqual([]);
    });

    it('counts runs by halt reason, in the order of each reason\'s first run, unfinished runs under null', async () => {
      for (const id of ['run-a', 'run-b', 'run-c', 'run-d', 'run-e']) await store.runs.create(newRun(id));
      await store.runs.update('run-a', { status: 'failed', haltReason: 'cap' });
      await store.runs.update('run-b', { status: 'completed', haltReason: 'final_answer' });
      await store.runs.update('run-d', { status: 'failed', haltReason: 'cap' });
      await store.runs.update('run-e', { status: 'failed', haltReason: 'interrupted' });

      expect((await store.stats.summarize()).halts).toEqual([
        { haltReason: 'cap', runs: 2 },
        { haltReason: 'final_answer', runs: 1 },
        { haltReason: null, runs: 1 },
        { haltReason: 'interrupted', runs: 1 },
      ]);
    });

    it('sums model usage per model over stored runs only, unknown prices making the cost unknown, oldest run first', async () => {
      await store.runs.create(newRun('run-old'));
      await store.runs.create(newRun('run-new'));
      // Recorded before the older run's calls: order follows the runs, then the calls within a run.
      await store.modelCalls.record(modelCall({ runId: 'run-new', model: 'anthropic:claude-sonnet-4-6', inputTokens: 7, outputTokens: 1, costUsd: 0.5 }));
      await store.modelCalls.recordAll([
        modelCall({ runId: 'run-old', model: 'openai:gpt-4.1-mini', inputTokens: 100, outputTokens: 10, costUsd: 0.25 }),
        modelCall({ runId: 'run-old', model: 'ollama:llama3.2', inputTokens: 40, outputTokens: 4, costUsd: 0 }),
        modelCall({ runId: 'run-old', model: 'openai:gpt-4.1-mini', inputTokens: 200, outputTokens: 20, costUsd: 0.125 }),
      ]);
      await store.modelCalls.recordAll([
        modelCall({ runId: 'run-new', model: 'openrouter:unpriced', inputTokens: 3, outputTokens: 1, costUsd: null }),
        modelCall({ runId: 'run-new', model: 'openrouter:unpriced', inputTokens: 5, outputTokens: 2, costUsd: 1 }),
        modelCall({ runId: null, model: 'openai:gpt-4.1-mini', inputTokens: 9_999, costUsd: 9 }),
        modelCall({ runId: 'run-never-stored', model: 'openai:gpt-4.1-mini', inputTokens: 9_999, costUsd: 9 }),
      ]);

      expect((await store.stats.summarize()).models).toEqual([
        { model: 'openai:gpt-4.1-mini', llmCalls: 2, inputTokens: 300, outputTokens: 30, costUsd: 0.375, pricedCostUsd: 0.375, unpricedCalls: 0 },
        { model: 'ollama:llama3.2', llmCalls: 1, inputTokens: 40, outputTokens: 4, costUsd: 0, pricedCostUsd: 0, unpricedCalls: 0 },
        { model: 'anthropic:claude-sonnet-4-6', llmCalls: 1, inputTokens: 7, outputTokens: 1, costUsd: 0.5, pricedCostUsd: 0.5, unpricedCalls: 0 },
        { model: 'openrouter:unpriced', llmCalls: 2, inputTokens: 8, outputTokens: 3, costUsd: null, pricedCostUsd: 1, unpricedCalls: 1 },
      ]);
      expect((await store.stats.summarize({ runId: 'run-new' })).models.map((usage) => usage.model)).toEqual(['anthropic:claude-sonnet-4-6', 'openrouter:unpriced']);
    });

    it('counts tool calls and failures per tool, oldest run first, then by step', async () => {
      await store.runs.create(newRun('run-old'));
      await store.runs.create(newRun('run-new'));
      await store.steps.recordAll([step('run-new', 0, 'http_request'), step('run-new', 1, 'web_search', 'HTTP 503')]);
      await store.steps.recordAll([step('run-old', 0, 'read_url', 'blocked'), step('run-old', 1, 'web_search'), step('run-old', 2, 'read_url')]);

      expect((await store.stats.summarize()).tools).toEqual([
        { tool: 'read_url', calls: 2, errors: 1 },
        { tool: 'web_search', calls: 2, errors: 1 },
        { tool: 'http_request', calls: 1, errors: 0 },
      ]);
      expect(await store.stats.summarize({ runId: 'run-new' })).toEqual({
        halts: [{ haltReason: null, runs: 1 }],
        models: [],
        tools: [
          { tool: 'http_request', calls: 1, errors: 0 },
          { tool: 'web_search', calls: 1, errors: 1 },
        ],
        toolUsage: [],
      });
      expect(await store.stats.summarize({ runId: 'run-unknown' })).toEqual({ halts: [], models: [], tools: [], toolUsage: [] });
    });

    it('adds up tool-call analytics per tool: calls, failures, cache hits, bytes, and nearest-rank p50/p95 of the calls the cache did not answer', async () => {
      await store.runs.create(newRun('run-old'));
      await store.runs.create(newRun('run-new'));
      // The newer run's rows are written first: the order follows the runs, then the calls within a run.
      await store.transaction(async (writes) => {
        await writes.toolCalls.recordAll([toolCall('run-new', 'read_url', 30), toolCall('run-new', 'read_url', 10, { ok: false, bytesOut: 7 }), toolCall('run-new', 'read_url', 20)]);
        await writes.toolCalls.recordAll([toolCall('run-new', 'web_search', 0.5, { cached: true }), toolCall('run-new', 'only_cached', 0.25, { cached: true, bytesIn: 3 })]);
      });
      // web_search in the older run: 1 … 20 ms, shuffled, and five cache hits whose durations must not count.
      const durations = [7, 19, 3, 12, 1, 16, 9, 20, 5, 14, 2, 18, 11, 6, 15, 4, 13, 8, 17, 10];
      await store.transaction(async (writes) => {
        await writes.toolCalls.recordAll([
          ...durations.map((duration, index) => toolCall('run-old', 'web_search', duration, { ok: index % 4 !== 0, bytesIn: 2, bytesOut: 50 })),
          ...Array.from({ length: 5 }, (_, index) => toolCall('run-old', 'web_search', 0.1 * (index + 1), { cached: true, bytesIn: 2, bytesOut: 50 })),
        ]);
      });

      expect((await store.stats.summarize()).toolUsage).toEqual([
        // 20 calls the cache did not answer (1 … 20 ms): the 10th and the 19th shortest.
        { tool: 'web_search', calls: 26, failures: 5, cacheHits: 6, p50Ms: 10, p95Ms: 19, bytesIn: 60, bytesOut: 1_350 },
        { tool: 'read_url', calls: 3, failures: 1, cacheHits: 0, p50Ms: 20, p95Ms: 30, bytesIn: 30, bytesOut: 207 },
        { tool: 'only_cached', calls: 1, failures: 0, cacheHits: 1, p50Ms: null, p95Ms: null, bytesIn: 3, bytesOut: 100 },
      ]);
      expect((await store.stats.summarize({ runId: 'run-old' })).toolUsage).toEqual([
        { tool: 'web_search', calls: 25, failures: 5, cacheHits: 5, p50Ms: 10, p95Ms: 19, bytesIn: 50, bytesOut: 1_250 },
      ]);
    });

    it('deletes a run\'s tool-call analytics with the run', async () => {
      await store.runs.create(newRun('run-gone'));
      await store.runs.create(newRun('run-kept'));
      await store.transaction(async (writes) => {
        await writes.toolCalls.recordAll([toolCall('run-gone', 'web_search', 5), toolCall('run-kept', 'read_url', 7)]);
      });

      expect(await store.runs.delete('run-gone')).toBe(true);

      expect((await store.stats.summarize()).toolUsage).toEqual([{ tool: 'read_url', calls: 1, failures: 0, cacheHits: 0, p50Ms: 7, p95Ms: 7, bytesIn: 10, bytesOut: 100 }]);
    });

    it('lists the run logs of stored runs, oldest first, leaving out runs without one', async () => {
      await store.runs.create({ ...newRun('run-a'), logFile: '/forge/runs/a.jsonl' });
      await store.runs.create(newRun('run-b'));
      await store.runs.create({ ...newRun('run-c'), logFile: '/forge/runs/c.jsonl' });

      expect(await store.stats.runLogFiles()).toEqual(['/forge/runs/a.jsonl', '/forge/runs/c.jsonl']);
      expect(await store.stats.runLogFiles({ runId: 'run-c' })).toEqual(['/forge/runs/c.jsonl']);
      expect(await store.stats.runLogFiles({ runId: 'run-b' })).toEqual([]);
    });

    it('reads only the events of the asked types, oldest run first and in seq order, across pages', async () => {
      await store.runs.create(newRun('run-old'));
      await store.runs.create(newRun('run-new'));
      const verdict = (runId: string, seq: number, tool: string): ForgeEvent => ({
        ts: '2026-01-02T03:04:08.000Z', run_id: runId, seq, type: 'synthesis-end', tool, status: 'promoted', revisions: 0, llm_calls: 2, tokens: { input: 10, output: 5 }, cost_usd: null, flagged: false, failures: [],
      });
      // The newer run's events are stored first, and more than a page of them match.
      const newer = Array.from({ length: 1_200 }, (_, seq) => (seq % 2 === 0 ? textEvent('run-new', seq, `text ${seq}`) : verdict('run-new', seq, `tool_${seq}`)));
      await store.events.appendAll(newer);
      await store.events.appendAll([runStartEvent('run-old', 0), verdict('run-old', 1, 'first'), textEvent('run-old', 2, 'between'), verdict('run-old', 3, 'second')]);

      const read: ForgeEvent[] = [];
      for await (const event of store.stats.eventsOfTypes(['synthesis-end'])) read.push(event);

      expect(read.map((event) => [event.run_id, event.seq])).toEqual([
        ['run-old', 1],
        ['run-old', 3],
        ...newer.filter((event) => event.type === 'synthesis-end').map((event) => [event.run_id, event.seq]),
      ]);
      expect(read[0]).toEqual(verdict('run-old', 1, 'first'));
      const scoped: ForgeEvent[] = [];
      for await (const event of store.stats.eventsOfTypes(['run-start', 'synthesis-end'], { runId: 'run-old' })) scoped.push(event);
      expect(scoped.map((event) => event.type)).toEqual(['run-start', 'synthesis-end', 'synthesis-end']);
      const none: ForgeEvent[] = [];
      for await (const event of store.stats.eventsOfTypes([])) none.push(event);
      expect(none).toEqual([]);
    });
  });
}
