import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelCallRefusedError, defineTool, type ModelCallCheck, type ModelCallRequest } from '../core/index.js';
import { openRuntime, type ForgeRuntime } from './task-runs.js';
import { runTask } from './run-shortcuts.js';

/**
 * The one pre-call seam: every model call of a run passes the run's own limits and the checks the
 * composition root plugs in (account quotas, budgets) before anything is sent to the model.
 */
describe('pre-call checks on every model call', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  const seen: ModelCallRequest[] = [];
  /** Allows two model calls per account, then refuses like a quota would. */
  const quota: ModelCallCheck = {
    name: 'test-quota',
    check(call) {
      seen.push(call);
      if (call.spent.llmCalls >= 2) throw new ModelCallRefusedError({ check: 'test-quota', haltReason: 'refused', message: `account ${call.userId} used its 2 model calls`, hint: 'Wait for the next period.' });
    },
  };

  beforeAll(async () => {
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-model-call-checks-'));
    // The model would go on calling the tool for ever; only the check stops it.
    mock.on({ userMessage: 'count the sheep' }, { toolCalls: [{ id: 'c1', name: 'count', arguments: {} }] });
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` }, home, { mcp: { startupWaitMs: 0 }, modelCallChecks: [quota] });
    runtime.registry.register(defineTool({ name: 'count', description: 'Counts one more sheep.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => ({ counted: 1 }) }));
  });
  afterAll(async () => {
    await runtime.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('refuses the call a check refuses before it is sent, and ends the run with the halt reason the check names', async () => {
    const before = mock.getRequests().length;
    const result = await runTask(runtime, { task: 'count the sheep', model: 'openai:gpt-4.1-mini', maxIterations: 10, maxRetries: 0, userId: null });

    expect(result).toMatchObject({ status: 'failed', halt_reason: 'refused', llm_calls: 2, error: { name: 'ModelCallRefusedError', message: 'account null used its 2 model calls', hint: 'Wait for the next period.' } });
    // Two calls reached the model; the third was refused before it was sent.
    expect(mock.getRequests().length - before).toBe(2);
    expect(seen.map((call) => [call.runId, call.purpose, call.model, call.spent.llmCalls])).toEqual([
      [result.run_id, 'agent-step', 'openai:gpt-4.1-mini', 0],
      [result.run_id, 'agent-step', 'openai:gpt-4.1-mini', 1],
      [result.run_id, 'agent-step', 'openai:gpt-4.1-mini', 2],
    ]);
    const events = await runtime.store.events.list(result.run_id);
    expect(events.filter((event) => event.type === 'model-call-start')).toHaveLength(2);
  });
});
