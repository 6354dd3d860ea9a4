import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ForgeEvent, type ToolUsageRecord } from '../src/core/index.js';
import { openRuntime, runTask, type RunTaskResult } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { runCli } from './support/built-cli.js';

const usage = {
  inputTokens: { total: 40, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 8, text: undefined, reasoning: undefined },
};

/** A model that makes `calls` one a turn, in order, then answers `done`. */
function scriptedModel(calls: readonly (readonly [string, unknown])[]): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the agent loop streams');
    },
    async doStream(options: LanguageModelV3CallOptions) {
      const turn = options.prompt.filter((message) => message.role === 'tool').length;
      const call = calls[turn];
      const parts: LanguageModelV3StreamPart[] =
        call === undefined
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }]
          : [{ type: 'tool-call', toolCallId: `call_${turn}`, toolName: call[0], input: JSON.stringify(call[1]) }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage }];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  };
}

/**
 * The guards and the analytics end to end, on the real runtime with its defaults (a file store, run
 * logs, the guards FORGE_* settings give every run): what ran is counted at the tools, what was stored
 * is read back, and `forge stats` and `forge replay` are the built binary's.
 */
describe('call guards and tool analytics on the runtime', () => {
  const script: (readonly [string, unknown])[] = [
    ['lookup', { id: 'a' }],
    ['lookup', { id: 'a' }],
    ['save_note', { text: 'x' }],
    ['lookup', { id: 'a' }],
    ['lookup', { id: 'a' }],
    ['flaky', { n: 1 }],
    ['flaky', { n: 2 }],
    ['flaky', { n: 3 }],
    ['flaky', { n: 4 }],
  ];
  const executions: string[] = [];
  let home: string;
  let result: RunTaskResult;
  let events: ForgeEvent[];
  let stored: ToolUsageRecord[];
  let storedRows: number;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-guards-'));
    const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    try {
      runtime.registry.register(defineTool({ name: 'lookup', description: 'reads a record', inputSchema: z.object({ id: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ id }) => { executions.push(`lookup ${id}`); return `record ${id} #${executions.length}`; } }));
      runtime.registry.register(defineTool({ name: 'save_note', description: 'writes a note', inputSchema: z.object({ text: z.string() }), risk: 'low', sideEffect: 'write', execute: async ({ text }) => { executions.push(`save_note ${text}`); return 'saved'; } }));
      runtime.registry.register(defineTool({ name: 'flaky', description: 'always fails', inputSchema: z.object({ n: z.number() }), risk: 'low', sideEffect: 'read', execute: async ({ n }) => { executions.push(`flaky ${n}`); throw new Error(`upstream 503 on try ${n}`); } }));
      result = await runTask(runtime, { task: 'guarded task', model: { slug: 'test:scripted', provider: 'test', model: scriptedModel(script) }, maxIterations: script.length + 1 });
    } finally {
      await runtime.close();
    }
    const store = await openStore({ url: path.join(home, 'forge.db') });
    try {
      events = await store.events.list(result.run_id);
      stored = [...(await store.stats.summarize({ runId: result.run_id })).toolUsage];
      storedRows = stored.reduce((sum, tool) => sum + tool.calls, 0);
    } finally {
      await store.close();
    }
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('runs a read again only when the cache cannot answer, every write, and a failing tool three times', () => {
    expect(result.status).toBe('completed');
    expect(executions).toEqual(['lookup a', 'save_note x', 'lookup a', 'flaky 1', 'flaky 2', 'flaky 3']);
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => [event.tool, event.cached === true])).toEqual([
      ['lookup', false],
      ['lookup', true],
      ['save_note', false],
      ['lookup', false],
      ['lookup', true],
    ]);
    expect(result.steps.map((step) => step.error?.name ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ToolExecutionError', 'ToolExecutionError', 'ToolExecutionError', 'ToolFailureBlockedError']);
    expect(result.steps.at(-1)!.output).toContain('flaky failed 3 times in a row (last error: Tool "flaky" failed: upstream 503 on try 3); it is blocked for the rest of this run.');
  });

  it('stores one analytics row per dispatched call, with failures, cache hits and bytes per tool', () => {
    expect(storedRows).toBe(script.length);
    expect(events.filter((event) => event.type === 'tool-call-start')).toHaveLength(script.length);
    expect(stored.map(({ p50Ms: _p50, p95Ms: _p95, ...counts }) => counts)).toEqual([
      { tool: 'lookup', calls: 4, failures: 0, cacheHits: 2, bytesIn: 4 * Buffer.byteLength('{"id":"a"}'), bytesOut: 4 * Buffer.byteLength('record a #1') },
      { tool: 'save_note', calls: 1, failures: 0, cacheHits: 0, bytesIn: Buffer.byteLength('{"text":"x"}'), bytesOut: Buffer.byteLength('saved') },
      {
        tool: 'flaky',
        calls: 4,
        failures: 4,
        cacheHits: 0,
        bytesIn: 4 * Buffer.byteLength('{"n":1}'),
        bytesOut: events.flatMap((event) => (event.type === 'tool-error' ? [Buffer.byteLength(event.error.message)] : [])).reduce((sum, bytes) => sum + bytes, 0),
      },
    ]);
    const lookupDurations = events.flatMap((event) => (event.type === 'tool-result' && event.tool === 'lookup' && event.cached !== true ? [event.duration_ms] : [])).sort((left, right) => left - right);
    expect(stored[0]).toMatchObject({ p50Ms: lookupDurations[0], p95Ms: lookupDurations[1] });
  });

  it('shows the per-tool table in forge stats, --json included, and marks cache hits in the run log', async () => {
    const env = { FORGE_HOME: home };
    const json = await runCli(['stats', '--run', result.run_id, '--json'], env);
    const all = await runCli(['stats', '--all', '--json'], env);
    const text = await runCli(['stats', '--run', result.run_id], env);
    const replay = await runCli(['replay', result.log_file, '--no-tui'], env);

    expect(json.code, json.stderr).toBe(0);
    const tools = (JSON.parse(json.stdout) as { tool_usage: { tool: string; calls: number; cache_hits: number; failures: number }[] }).tool_usage;
    expect(tools.map((tool) => [tool.tool, tool.calls, tool.cache_hits, tool.failures])).toEqual([
      ['lookup', 4, 2, 0],
      ['save_note', 1, 0, 0],
      ['flaky', 4, 0, 4],
    ]);
    expect((JSON.parse(all.stdout) as { tools: unknown[] }).tools).toEqual(tools);
    expect(text.stdout).toMatch(/^ {2}tool +calls +failed +cached +p50 +p95 +in +out$/m);
    expect(text.stdout).toMatch(/^ {2}lookup +4 +0 +2 +\d+ms +\d+ms +40 B +44 B$/m);
    expect(text.stdout).toMatch(/^ {2}flaky +4 +4 +0 /m);
    expect(replay.stdout.split('\n').filter((line) => line.includes('(cached)'))).toHaveLength(2);
    expect(replay.stdout).toMatch(/lookup -> 11 B \(cached\) in \d+ms \(call_1\)/);
  });
});

describe("a convergence run's own tools", () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-guards-converge-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('reach the loop on every call: a plan set back to an earlier one is set, not answered from the cache', async () => {
    const plan = (status: 'pending' | 'done') => ({ steps: [{ id: 'one', title: 'look it up', status }] });
    const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    let result: RunTaskResult;
    try {
      const script = [['update_plan', plan('pending')], ['update_plan', plan('done')], ['update_plan', plan('pending')], ['final_answer', { answer: 'done' }]] as const;
      result = await runTask(runtime, { task: 'plan twice', converge: true, model: { slug: 'test:scripted', provider: 'test', model: scriptedModel(script) }, maxIterations: 6 });
    } finally {
      await runtime.close();
    }
    const store = await openStore({ url: path.join(home, 'forge.db') });
    try {
      const events = await store.events.list(result.run_id);
      expect(result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', answer: 'done' });
      expect(events.filter((event) => event.type === 'plan-update').map((event) => event.steps[0]!.status)).toEqual(['pending', 'done', 'pending']);
      expect(events.filter((event) => event.type === 'tool-result' && event.cached === true)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
