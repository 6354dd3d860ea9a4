import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, runTask, type ForgeRuntime } from '../src/compose/index.js';
import { startCountingServer, type CountingServer } from './support/side-effect-counter.js';

/**
 * A skill saved from a run whose one step is a GET `http_request` (a read, by the tool's own per-call
 * decision) passes its own offline test, as its replay does: run and test judge a step's side effect
 * by one function. A failed test shows on the skill's health (stale, with the reason); a passing test
 * clears it.
 */
describe('forge skill test judges side effects as a replay does', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let counting: CountingServer;
  let home: string;
  let runtime: ForgeRuntime;

  beforeAll(async () => {
    await mock.start();
    counting = await startCountingServer();
    mock.on({ userMessage: 'Check the stock', hasToolResult: false }, { toolCalls: [{ id: 'stock_1', name: 'http_request', arguments: { url: counting.url('stock'), method: 'GET' } }] });
    mock.on({ toolCallId: 'stock_1' }, { content: 'In stock.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-skill-test-'));
    runtime = await openRuntime({ FORGE_HOME: home, FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: counting.allowHost }, home, { mcp: { startupWaitMs: 0 } });
  });
  afterAll(async () => {
    await runtime?.close();
    await counting?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('a GET step passes its test; a failed test makes the skill stale with the reason, a passing one active again', async () => {
    const run = await runTask(runtime, { task: 'Check the stock', maxRetries: 0 });
    expect(run.status).toBe('completed');
    expect(counting.counter.hits('stock')).toBe(1);
    const saved = await runtime.skills.saveFromRun(run.run_id, { name: 'stock-check' });
    expect(saved.write_constants).toEqual([]);

    const report = await runtime.skills.test('stock-check');
    expect(report.problems).toEqual([]);
    expect(report.passed).toBe(true);
    expect((await runtime.skills.load('stock-check')).record).toMatchObject({ status: 'active', staleReason: null });
    // Offline: the test never reached the server.
    expect(counting.counter.hits('stock')).toBe(1);

    const tool = runtime.registry.get('http_request')!;
    runtime.registry.unregister('http_request');
    try {
      expect((await runtime.skills.test('stock-check')).passed).toBe(false);
      expect((await runtime.skills.load('stock-check')).record).toMatchObject({ status: 'stale', staleReason: expect.stringContaining('its test failed: tool "http_request" is no longer registered') });
    } finally {
      runtime.registry.register(tool);
    }
    expect((await runtime.skills.test('stock-check')).passed).toBe(true);
    expect((await runtime.skills.load('stock-check')).record).toMatchObject({ status: 'active', staleReason: null });
  }, 60_000);
});
