import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialProvider, Credentials, Policy, PolicyRequest } from '../src/core/index.js';
import { InProcessJobQueue } from '../src/adapters/queue/index.js';
import { REDACTED } from '../src/security/redaction/index.js';
import { callTool, createRuntime, loadConfig, runTask } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';

const vaultKey = 'vault-openai-key-7f3a9c21d4';

/** Keys from somewhere that is not the environment, counting what it was asked for. */
function vault(keys: Partial<Record<CredentialProvider, string>>): Credentials & { asked: CredentialProvider[] } {
  const asked: CredentialProvider[] = [];
  return {
    asked,
    async get(provider) {
      asked.push(provider);
      return keys[provider];
    },
  };
}

describe('createRuntime with credentials that are not the environment', () => {
  // The model server accepts the vault's key only: a request made with the environment's key is refused (401).
  let mock: LLMock;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1', auth: { apiKeys: [vaultKey] } });
    await mock.start();
    mock.on({ userMessage: 'which key did you get?' }, { content: `I was called with ${vaultKey}.` });
    home = await mkdtemp(path.join(tmpdir(), 'forge-credentials-'));
    env = { FORGE_HOME: home, OPENAI_API_KEY: 'env-openai-key-not-for-this-runtime', OPENAI_BASE_URL: `${mock.url}/v1` };
  });
  afterAll(async () => {
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('the model server refuses the environment\'s key (what the next test relies on)', async () => {
    const runtime = await createRuntime({ config: loadConfig(env, home), mcp: { startupWaitMs: 0 } });
    try {
      const result = await runTask(runtime, { task: 'which key did you get?', maxRetries: 0 });
      expect(result).toMatchObject({ status: 'failed', llm_calls: 0, error: { name: 'ModelCallError' } });
    } finally {
      await runtime.close();
    }
  });

  it('resolves the model with the injected key, never the environment\'s, and redacts that key everywhere', async () => {
    const credentials = vault({ openai: vaultKey });
    const runtime = await createRuntime({ config: loadConfig(env, home), credentials, mcp: { startupWaitMs: 0 } });
    const before = mock.getRequests().length;
    let result;
    try {
      // No --model and no FORGE_MODEL: the first vendor the credentials have a key for is chosen.
      result = await runTask(runtime, { task: 'which key did you get?', maxRetries: 0 });
    } finally {
      await runtime.close();
    }

    expect(result).toMatchObject({ status: 'completed', llm_calls: 1, answer: expect.stringContaining('I was called with') });
    const requests = mock.getRequests().slice(before);
    expect(requests.map((request) => [request.path, request.response.status])).toEqual([['/v1/chat/completions', 200]]);
    expect(credentials.asked).toContain('openai');

    // The key came back in the model's answer: the run log and the store hold it redacted.
    const log = await readFile(result.log_file, 'utf8');
    expect(log).not.toContain(vaultKey);
    expect(log).toContain(`I was called with ${REDACTED}.`);
    const store = await openStore({ url: runtime.config.databaseUrl });
    try {
      expect((await store.runs.get(result.run_id))!.answer).toBe(`I was called with ${REDACTED}.`);
      expect(JSON.stringify(await store.events.list(result.run_id))).not.toContain(vaultKey);
      expect(JSON.stringify(await store.conversations.listMessages(result.conversation_id))).not.toContain(vaultKey);
    } finally {
      await store.close();
    }
  });

  it('does not fall back to the environment\'s key when the credentials have none', async () => {
    const runtime = await createRuntime({ config: loadConfig(env, home), credentials: vault({}), mcp: { startupWaitMs: 0 } });
    const before = mock.getRequests().length;
    try {
      await expect(runTask(runtime, { task: 'which key did you get?', model: 'openai:gpt-4.1-mini', maxRetries: 0 })).rejects.toMatchObject({
        name: 'ModelNotConfiguredError',
        message: 'The model openai:gpt-4.1-mini needs OPENAI_API_KEY, which is not set.',
      });
      // Nor is a vendor chosen by the environment's keys when no model is named.
      await expect(runTask(runtime, { task: 'which key did you get?', maxRetries: 0 })).rejects.toMatchObject({ name: 'ModelNotConfiguredError', message: 'No model is configured.' });
    } finally {
      await runtime.close();
    }
    expect(mock.getRequests().length).toBe(before);
  });
});

describe('createRuntime with injected parts', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-composition-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('uses the policy, store and queue it is given, and closes the store and the queue with itself', async () => {
    const config = loadConfig({ FORGE_HOME: home }, home);
    const store = await openStore({ url: config.databaseUrl });
    const queue = new InProcessJobQueue();
    const consulted: PolicyRequest[] = [];
    const policy: Policy = {
      async decide(request) {
        consulted.push(request);
        return { decision: 'block', reason: 'the injected policy blocks every call' };
      },
    };
    const runtime = await createRuntime({ config, store, queue, policy, mcp: { startupWaitMs: 0 } });
    expect(runtime.store).toBe(store);
    expect(runtime.queue).toBe(queue);

    const called = await callTool(runtime, { name: 'read_url', input: { url: 'https://example.org/' } });
    const stats = await runtime.stats.run(called.run_id);
    const newest = await runtime.stats.newestRun();
    await runtime.close();

    expect(called.outcome).toMatchObject({ ok: false, tool: 'read_url', error: { name: 'PolicyBlockedError' } });
    expect(consulted.map((request) => request.tool)).toEqual(['read_url']);
    expect(stats.totals).toMatchObject({ run_id: called.run_id, status: 'failed', tool_calls: 1, tool_errors: 1, llm_calls: 0 });
    expect(newest.totals.run_id).toBe(called.run_id);
    await expect(queue.enqueue('agent-run', {})).rejects.toMatchObject({ name: 'JobQueueClosedError' });
    await expect(store.runs.get(called.run_id)).rejects.toThrow();
  });

  it('gives its services the catalog and the toolbox: tool removal refuses what the toolbox does not hold', async () => {
    const runtime = await createRuntime({ config: loadConfig({ FORGE_HOME: home }, home), mcp: { startupWaitMs: 0 } });
    try {
      expect((await runtime.tools.list()).tools.map((tool) => tool.name)).toEqual(runtime.registry.names());
      expect(await runtime.tools.describe('read_url')).toMatchObject({ name: 'read_url', registered: true, side_effect: 'read' });
      await expect(runtime.tools.remove('read_url')).rejects.toMatchObject({ name: 'NotFoundError', kind: 'toolbox tool', id: 'read_url' });
      expect(runtime.registry.get('read_url')).toBeDefined();
      await expect(runtime.skills.load('no-such-skill')).rejects.toMatchObject({ name: 'NotFoundError', kind: 'skill' });
    } finally {
      await runtime.close();
    }
  });
});
