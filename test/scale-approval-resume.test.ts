import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../src/core/index.js';
import { openRuntime, startWorker, type ForgeRuntime, type RunWorker } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from './support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from './support/redis-test-keys.js';

function ledgerTool(calls: unknown[]): AnyTool {
  return defineTool({
    name: 'ledger_write',
    description: 'Writes an entry to the ledger.',
    inputSchema: z.object({ entry: z.string() }),
    risk: 'medium',
    sideEffect: 'write',
    async execute(input) {
      calls.push(input);
      return { written: input.entry };
    },
  });
}

/**
 * Approvals in the scaled mode: a server and a worker (in this process, as `forge worker` runs it) on
 * one PostgreSQL schema and one Redis key prefix of their own. The run pauses on the worker; the
 * approval is answered over the API; a worker goes on with it.
 */
describe('the scaled mode: a run resumed after an approval', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  const keys = redisTestKeys('approval-resume');
  const schema = freshSchemaName();
  const homes: string[] = [];
  const calls: unknown[] = [];
  let server: ApiServer;
  let serverRuntime: ForgeRuntime;
  let workerRuntime: ForgeRuntime;
  let worker: RunWorker;

  beforeAll(async () => {
    await mock.start();
    for (const id of ['entry_compat', 'entry_gone']) {
      mock.on({ userMessage: `write ${id}`, hasToolResult: false }, { toolCalls: [{ id, name: 'ledger_write', arguments: { entry: id } }] });
      mock.on({ toolCallId: id }, { content: `wrote ${id}` });
    }
    await createSchema(schema);
    // Neither process has a default model or a base URL in its environment: the run's slug names its server.
    const env = {
      FORGE_DATABASE_URL: postgresTestUrl(schema),
      FORGE_REDIS_URL: TEST_REDIS_URL,
      FORGE_REDIS_PREFIX: keys.prefix(),
      FORGE_SECRET_KEY: 'b'.repeat(64),
      FORGE_REQUIRE_APPROVAL: 'ledger_write',
      FORGE_API_RATE_LIMIT: '0',
    };
    const open = async (name: string) => {
      const home = await mkdtemp(path.join(tmpdir(), `forge-scale-approval-${name}-`));
      homes.push(home);
      const runtime = await openRuntime({ ...env, FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
      runtime.registry.register(ledgerTool(calls));
      return runtime;
    };
    serverRuntime = await open('server');
    workerRuntime = await open('worker');
    server = await serveApi(serverRuntime, { port: 0, auth: 'none' });
    worker = startWorker(workerRuntime, { concurrency: 2 });
  }, 60_000);

  afterAll(async () => {
    await worker?.jobs.close();
    await server?.close();
    await serverRuntime?.close();
    await workerRuntime?.close();
    await mock.stop();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }, 60_000);

  async function pausedRun(task: string): Promise<string> {
    const response = await fetch(`${server.listener.origin}/api/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task, model: `openai-compatible:gpt-4.1-mini@${mock.url}/v1`, tools: ['ledger_write'] }),
    });
    expect(response.status).toBe(202);
    const { run_id: runId } = (await response.json()) as { run_id: string };
    await expect.poll(async () => (await serverRuntime.runs.get(runId)).status, { timeout: 20_000, interval: 50 }).toBe('waiting');
    return runId;
  }

  async function approve(runId: string, callId: string): Promise<{ status: number; body: { resumed: boolean; resume_error: { name: string; message: string } | null } }> {
    const response = await fetch(`${server.listener.origin}/api/v1/approvals/${runId}/${callId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: response.status, body: (await response.json()) as { resumed: boolean; resume_error: { name: string; message: string } | null } };
  }

  it('goes on on a worker with the model it started with, base URL included', async () => {
    const runId = await pausedRun('write entry_compat');
    const answered = await approve(runId, 'entry_compat');
    expect(answered).toMatchObject({ status: 200, body: { resumed: true } });
    await expect.poll(async () => (await serverRuntime.runs.get(runId)).status, { timeout: 20_000, interval: 50 }).toBe('completed');
    expect(answered.body.resume_error).toBeNull();
    expect(await serverRuntime.runs.get(runId)).toMatchObject({ answer: 'wrote entry_compat', llmCalls: 2 });
    expect(calls).toEqual([{ entry: 'entry_compat' }]);
  }, 60_000);

  it('a resume the worker refuses is told to the approver, and the run leaves waiting, failed with the reason', async () => {
    const runId = await pausedRun('write entry_gone');
    // The tool leaves the worker while the run waits: the worker cannot go on with it.
    workerRuntime.registry.unregister('ledger_write');
    try {
      const answered = await approve(runId, 'entry_gone');
      expect(answered).toMatchObject({ status: 200, body: { resumed: false, resume_error: { name: 'RunNotResumableError', message: expect.stringContaining('"ledger_write", which no longer exists') } } });
      expect(await serverRuntime.runs.get(runId)).toMatchObject({ status: 'failed', haltReason: 'interrupted', error: expect.stringContaining('could not go on after its approval') });
      expect(worker.tally().failed).toBe(0);
    } finally {
      workerRuntime.registry.register(ledgerTool(calls));
    }
    // With the tool back, resuming it (API) runs the approved call once.
    const resumed = await fetch(`${server.listener.origin}/api/v1/runs/${runId}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(resumed.status).toBeLessThan(300);
    await expect.poll(async () => (await serverRuntime.runs.get(runId)).status, { timeout: 20_000, interval: 50 }).toBe('completed');
    expect(calls.filter((call) => JSON.stringify(call).includes('entry_gone'))).toEqual([{ entry: 'entry_gone' }]);
  }, 60_000);
});
