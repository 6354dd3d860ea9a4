import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
/** A model the pricing table does not know: its calls have no price. */
const UNPRICED_MODEL = 'openai:quota-test-unpriced';
const PASSWORD = 'a long enough password';

/**
 * Per-account and per-key quotas over the HTTP API (issue 26): one account flooding the server with
 * starts never keeps another's run from starting and finishing; starts past a quota are answered 429
 * with Retry-After and a body naming the quota; tokens and dollars per day end a run `quota_exceeded`
 * before the call past them is sent; an unpriced model is refused under a dollar quota unless allowed.
 */
describe('quotas per account and per key', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let root: ForgeClient;
  let ann: ForgeClient;
  let ben: ForgeClient;
  let annToken: string;
  let annId: string;
  let benId: string;
  /** Holds every `hold` tool call until the test releases it: ann's runs stay running meanwhile. */
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'hold the line', hasToolResult: false }, { toolCalls: [{ id: 'hold_1', name: 'hold', arguments: {} }], usage: { prompt_tokens: 5, completion_tokens: 1 } });
    mock.on({ toolCallId: 'hold_1' }, { content: 'Held.', usage: { prompt_tokens: 5, completion_tokens: 1 } });
    mock.on({ userMessage: 'a quick question', hasToolResult: false }, { content: 'Quick answer.', usage: { prompt_tokens: 5, completion_tokens: 1 } });
    // The model would count for ever: only a quota stops it. Each call is 60 + 10 tokens.
    mock.on({ userMessage: 'count the sheep' }, { toolCalls: [{ id: 'count_1', name: 'count', arguments: {} }], usage: { prompt_tokens: 60, completion_tokens: 10 } });
    home = await mkdtemp(path.join(tmpdir(), 'forge-quotas-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_API_RATE_LIMIT: '0' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(defineTool({ name: 'hold', description: 'Waits.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => (await held, 'held') }));
    runtime.registry.register(defineTool({ name: 'count', description: 'Counts one more sheep.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => ({ counted: 1 }) }));
    await runtime.accounts.addUser({ email: 'root@example.com', password: PASSWORD, role: 'admin' });
    annId = (await runtime.accounts.addUser({ email: 'ann@example.com', password: PASSWORD })).id;
    benId = (await runtime.accounts.addUser({ email: 'ben@example.com', password: PASSWORD })).id;
    server = await serveApi(runtime, { port: 0, auth: 'accounts', mcp: { exposedTools: [], publishedSkills: [] } });
    origin = server.listener.origin;
    root = new ForgeClient({ baseUrl: origin });
    await root.login('root@example.com', PASSWORD);
    ann = new ForgeClient({ baseUrl: origin });
    annToken = (await ann.login('ann@example.com', PASSWORD)).access_token;
    ben = new ForgeClient({ baseUrl: origin });
    await ben.login('ben@example.com', PASSWORD);
  });
  afterAll(async () => {
    release();
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  /** Starts a run with raw fetch, to read the status, the Retry-After header and the body as sent. */
  async function startRaw(headers: Record<string, string>, body: unknown): Promise<{ status: number; retryAfter: string | null; body: { run_id?: string; error?: { name: string; message: string; hint?: string; quota?: Record<string, unknown> } } }> {
    const response = await fetch(`${origin}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as never };
  }

  async function finished(client: ForgeClient, runId: string) {
    await client.readEvents(runId);
    return client.getRun(runId);
  }

  it('an account flooding past its concurrent runs is refused 429 naming the quota, while another account\'s run starts and finishes', async () => {
    await root.setQuota(annId, { concurrent_runs: 2 });
    const flood = await Promise.all(Array.from({ length: 20 }, () => startRaw({ authorization: `Bearer ${annToken}` }, { task: 'hold the line', model: MODEL })));

    const started = flood.filter((answer) => answer.status === 202);
    const refused = flood.filter((answer) => answer.status === 429);
    expect(started).toHaveLength(2);
    expect(refused).toHaveLength(18);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('5');
      expect(answer.body.error).toMatchObject({ name: 'QuotaExceededError', quota: { name: 'concurrent_runs', subject: { kind: 'account', id: annId }, limit: 2, used: 2, resets_at: null, retry_after_seconds: 5 } });
      expect(answer.body.error?.message).toContain('quota of 2 concurrent runs');
    }
    // Nothing was recorded for the refused starts.
    expect(await runtime.store.runs.list({ ownedBy: { userId: annId, includeUnowned: false } })).toHaveLength(2);

    // Ann's two runs hold the line; Ben's run starts and finishes meanwhile.
    const benRun = await ben.startRun({ task: 'a quick question', model: MODEL });
    expect(await finished(ben, benRun.run_id)).toMatchObject({ status: 'completed', answer: 'Quick answer.' });
    expect((await runtime.runs.get(started[0]!.body.run_id!))?.status).toBe('running');

    release();
    for (const answer of started) expect(await finished(ann, answer.body.run_id!)).toMatchObject({ status: 'completed' });
    // Its runs ended: Ann starts again.
    expect((await startRaw({ authorization: `Bearer ${annToken}` }, { task: 'a quick question', model: MODEL })).status).toBe(202);
    await root.clearQuota(annId);
  });

  it('a key\'s runs per minute hold that key only, answered with when the minute frees', async () => {
    const key = await ben.createApiKey({ name: 'ci', scopes: ['runs:write', 'runs:read'] });
    const viaKey = { 'x-api-key': key.key };
    await root.setQuota(benId, { runs_per_minute: 1 }, { apiKeyId: key.api_key.key_id });

    const first = await startRaw(viaKey, { task: 'a quick question', model: MODEL });
    const second = await startRaw(viaKey, { task: 'a quick question', model: MODEL });
    expect(first.status).toBe(202);
    expect(second.status).toBe(429);
    expect(Number(second.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(second.retryAfter)).toBeLessThanOrEqual(60);
    expect(second.body.error?.quota).toMatchObject({ name: 'runs_per_minute', subject: { kind: 'api-key', id: key.api_key.key_id }, limit: 1, used: 1, resets_at: expect.any(String) });
    // The key's quota is the key's: Ben's session starts runs as before.
    const viaSession = await ben.startRun({ task: 'a quick question', model: MODEL });
    await finished(ben, viaSession.run_id);
    await finished(ben, first.body.run_id!);
    expect((await runtime.runs.get(first.body.run_id!))?.apiKeyId).toBe(key.api_key.key_id);
  });

  it('tokens per day end a run quota_exceeded before the call past them is sent, and refuse the next run\'s first call', async () => {
    // What ann's runs of the tests before used today counts too.
    const earlier = (await root.quota(annId)).quota.usage.tokens_today.total;
    await root.setQuota(annId, { tokens_per_day: earlier + 100 });
    const before = mock.getRequests().length;
    const run = await ann.startRun({ task: 'count the sheep', model: MODEL });

    // 0 then 70 more tokens used: two calls go; at 140 more the third is refused.
    expect(await finished(ann, run.run_id)).toMatchObject({ status: 'failed', halt_reason: 'quota_exceeded', llm_calls: 2, tokens: { input: 120, output: 20 } });
    expect(mock.getRequests().length - before).toBe(2);
    const next = await ann.startRun({ task: 'count the sheep', model: MODEL });
    const ended = await finished(ann, next.run_id);
    expect(ended).toMatchObject({ status: 'failed', halt_reason: 'quota_exceeded', llm_calls: 0 });
    expect(ended.error).toContain(`quota of ${earlier + 100} tokens per day`);
    expect(mock.getRequests().length - before).toBe(2);

    const usage = (await root.quota(annId)).quota;
    expect(usage.limits.tokens_per_day).toBe(earlier + 100);
    expect(usage.usage.tokens_today.total).toBe(earlier + 140);
    await root.clearQuota(annId);
  });

  it('a model without a price is refused under a dollar quota unless the quota allows it; its calls then count tokens, never $0', async () => {
    await root.setQuota(benId, { usd_per_day: 1 });
    const before = mock.getRequests().length;
    const refused = await ben.startRun({ task: 'a quick question', model: UNPRICED_MODEL });
    const ended = await finished(ben, refused.run_id);
    expect(ended).toMatchObject({ status: 'failed', halt_reason: 'quota_exceeded', llm_calls: 0 });
    expect(ended.error).toContain(`the model ${UNPRICED_MODEL} has no known price`);
    expect(mock.getRequests().length).toBe(before);

    await root.setQuota(benId, { usd_per_day: 1, allow_unpriced_models: true });
    const earlier = (await root.quota(benId)).quota.usage;
    const allowed = await ben.startRun({ task: 'a quick question', model: UNPRICED_MODEL });
    expect(await finished(ben, allowed.run_id)).toMatchObject({ status: 'completed', cost_usd: null });

    // Usage shows the quota and what was used: the unpriced call counted apart, not as $0 spent.
    const response = await fetch(`${origin}/api/v1/usage`, { headers: { authorization: `Bearer ${(await ben.login('ben@example.com', PASSWORD)).access_token}` } });
    const usage = (await response.json()) as { quota: { account: { user_id: string }; quota: { limits: Record<string, unknown>; usage: Record<string, unknown> } } };
    expect(usage.quota.account.user_id).toBe(benId);
    expect(usage.quota.quota.limits).toEqual({ concurrent_runs: null, runs_per_minute: null, tokens_per_day: null, usd_per_day: 1, allow_unpriced_models: true });
    expect(usage.quota.quota.usage).toMatchObject({ unpriced_calls_today: 1, usd_today: earlier.usd_today, tokens_today: { total: earlier.tokens_today.total + 6 } });
    await root.clearQuota(benId);
  });

  it('only an admin sets or reads quotas', async () => {
    await expect(ann.setQuota(annId, { concurrent_runs: 100 })).rejects.toMatchObject({ status: 403, code: 'AdminOnly' });
    await expect(ann.quota(annId)).rejects.toMatchObject({ status: 403 });
    await expect(root.setQuota(annId, { concurrent_runs: -1 })).rejects.toMatchObject({ status: 400 });
    await expect(root.setQuota('no-such-account', { concurrent_runs: 1 })).rejects.toMatchObject({ status: 404 });
  });
});
