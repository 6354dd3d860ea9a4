import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSessionKey, signAccessToken } from '../src/accounts/index.js';
import { ForgeClient } from '../src/client/index.js';
import { API_SCOPES, defineTool, type ApiScope } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { apiRoutes, serveApi, type ApiRoute, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';

/** Who a request of the matrix is sent as. */
type Caller = 'anonymous' | 'owner' | 'other' | 'key-with-scope' | 'key-without-scope' | 'revoked-key';
const CALLERS: readonly Caller[] = ['anonymous', 'other', 'key-without-scope', 'revoked-key', 'key-with-scope', 'owner'];

/** One row of the authorization matrix: how to call a route on one of the owner's records. */
interface MatrixRow {
  /** The path parameters (a fresh record of the owner's when the call changes it). */
  params(): Promise<Record<string, string>>;
  readonly body?: unknown;
  /** The owner's record the route touches: another account gets 404 for it, or a list without it. */
  readonly touches: 'record' | 'list' | 'creates' | 'self' | 'installation';
  /** Only a signed-in session may do this: a key, even with the scope, is refused (403). */
  readonly sessionOnly?: true;
}

/** `forge serve --auth accounts` in process: sign-in, keys, ownership of every record, the matrix over every route. */
describe('the HTTP API with accounts', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let ada: ForgeClient;
  let bob: ForgeClient;
  let adaToken: string;
  let bobToken: string;
  const ledger: unknown[] = [];

  /** Resolves once the run service no longer runs `runId`. */
  async function settled(runId: string): Promise<void> {
    for await (const _event of runtime.runs.eventsAfter(runId, Number.MAX_SAFE_INTEGER - 1)) {
      // Nothing after that seq: the loop ends when the run's feed closes.
    }
  }

  /** A run of ada's that waits for the approval of call ledger_1. */
  async function waitingRun(): Promise<string> {
    const started = await ada.startRun({ task: 'write to the ledger', model: MODEL });
    const read = await ada.readEvents(started.run_id);
    expect(read.events.at(-1)).toMatchObject({ type: 'run-pause' });
    await settled(started.run_id);
    return started.run_id;
  }

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'a quick question', hasToolResult: false }, { content: 'Quick answer.' });
    mock.on({ userMessage: 'matrix run', hasToolResult: false }, { content: 'Matrix answer.' });
    mock.on({ userMessage: 'look up forge', hasToolResult: false }, { toolCalls: [{ id: 'lookup_forge', name: 'lookup', arguments: { key: 'forge' } }] });
    mock.on({ toolCallId: 'lookup_forge' }, { content: 'Forge is an agent engine.' });
    mock.on({ userMessage: 'write to the ledger', hasToolResult: false }, { toolCalls: [{ id: 'ledger_1', name: 'ledger_write', arguments: { entry: 'paid' } }] });
    mock.on({ toolCallId: 'ledger_1' }, { content: 'Written.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-accounts-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_REQUIRE_APPROVAL: 'ledger_write', FORGE_API_RATE_LIMIT: '0' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(
      defineTool({
        name: 'ledger_write',
        description: 'Writes to the ledger.',
        inputSchema: z.object({ entry: z.string() }),
        risk: 'medium',
        sideEffect: 'write',
        execute: async (input) => {
          ledger.push(input);
          return 'ok';
        },
      }),
    );
    runtime.registry.register(defineTool({ name: 'lookup', description: 'Looks a key up.', inputSchema: z.object({ key: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ key }) => ({ key, fact: `fact about ${key}` }) }));
    await runtime.accounts.addUser({ email: 'ada@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', mcp: { exposedTools: ['lookup'], publishedSkills: [] } });
    origin = server.listener.origin;
    ada = new ForgeClient({ baseUrl: origin });
    adaToken = (await ada.login('ada@example.com', PASSWORD)).access_token;
    bob = new ForgeClient({ baseUrl: origin });
    bobToken = (await bob.login('bob@example.com', PASSWORD)).access_token;
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('refuses to start with accounts when there is no account', async () => {
    const emptyHome = await mkdtemp(path.join(tmpdir(), 'forge-accounts-empty-'));
    const empty = await openRuntime({ FORGE_HOME: emptyHome }, emptyHome, { mcp: { startupWaitMs: 0 } });
    try {
      await expect(serveApi(empty, { port: 0, auth: 'accounts' })).rejects.toMatchObject({ name: 'ConfigurationError', hint: expect.stringContaining('forge users add') });
    } finally {
      await empty.close();
      await rm(emptyHome, { recursive: true, force: true });
    }
  });

  it('signs in, refreshes once per refresh token, and a logout ends the session at once', async () => {
    const client = new ForgeClient({ baseUrl: origin });
    const wrong = await client.login('ada@example.com', 'not the password').catch((error: unknown) => error);
    expect(wrong).toMatchObject({ status: 401, code: 'AuthenticationError' });
    const first = await client.login('ada@example.com', PASSWORD);
    expect(await client.me()).toMatchObject({ via: 'session', user: { email: 'ada@example.com', role: 'admin' } });
    const second = await client.refresh(first.refresh_token);
    expect(await client.me()).toMatchObject({ via: 'session' });
    // The first refresh token was used: presenting it again revokes the whole session.
    expect(await client.refresh(first.refresh_token).catch((error: unknown) => error)).toMatchObject({ status: 401 });
    expect(await new ForgeClient({ baseUrl: origin, token: second.access_token }).me().catch((error: unknown) => error)).toMatchObject({ status: 401 });

    const third = new ForgeClient({ baseUrl: origin });
    const signedIn = await third.login('ada@example.com', PASSWORD);
    expect(await third.logout()).toBe(true);
    expect(await new ForgeClient({ baseUrl: origin, token: signedIn.access_token }).listRuns().catch((error: unknown) => error)).toMatchObject({ status: 401 });
    expect(await third.refresh(signedIn.refresh_token).catch((error: unknown) => error)).toMatchObject({ status: 401 });
  });

  it('keeps sign-up closed by default', async () => {
    const eve = await new ForgeClient({ baseUrl: origin }).signup('eve@example.com', PASSWORD).catch((error: unknown) => error);
    expect(eve).toMatchObject({ status: 403, code: 'AccountPermissionError' });
    expect((await runtime.accounts.listUsers()).map((user) => user.email)).not.toContain('eve@example.com');
  });

  it('refuses tampered access tokens: alg none, another key, expired, another user\'s id, a revoked session', async () => {
    const key = loadSessionKey({ sessionKey: undefined, home });
    const client = new ForgeClient({ baseUrl: origin });
    const signedIn = await client.login('ada@example.com', PASSWORD);
    const [header, payload, signature] = signedIn.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; sid: string };
    const bobId = (await runtime.accounts.requireUser('bob@example.com')).id;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const tampered = {
      'alg none': `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'another key': await signAccessToken(new Uint8Array(randomBytes(32)), { userId: claims.sub, sessionId: claims.sid }),
      expired: await signAccessToken(key, { userId: claims.sub, sessionId: claims.sid }, new Date(Date.now() - 3_600_000)),
      "another user's id": `${header}.${encode({ ...claims, sub: bobId })}.${signature}`,
      "another user's id, signed": await signAccessToken(key, { userId: bobId, sessionId: claims.sid }),
    };
    // The genuine token works, so each refusal below is the tampering's.
    expect((await new ForgeClient({ baseUrl: origin, token: signedIn.access_token }).me()).user?.email).toBe('ada@example.com');
    for (const [label, token] of Object.entries(tampered)) {
      const refused = await new ForgeClient({ baseUrl: origin, token }).listRuns().catch((error: unknown) => error);
      expect(refused, label).toMatchObject({ status: 401, code: 'Unauthenticated' });
    }
    await client.logout();
    expect(await new ForgeClient({ baseUrl: origin, token: signedIn.access_token }).listRuns().catch((error: unknown) => error)).toMatchObject({ status: 401 });
  });

  it('a cookie-authenticated write needs the session\'s CSRF token', async () => {
    const login = await fetch(`${origin}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ada@example.com', password: PASSWORD }) });
    const setCookies = login.headers.getSetCookie();
    expect(setCookies.find((cookie) => cookie.startsWith('forge_access='))).toMatch(/HttpOnly/);
    expect(setCookies.find((cookie) => cookie.startsWith('forge_access='))).toMatch(/SameSite=Lax/);
    expect(setCookies.find((cookie) => cookie.startsWith('forge_refresh='))).toMatch(/Path=\/api\/v1\/auth/);
    const cookie = setCookies.map((value) => value.split(';')[0]).join('; ');
    const { csrf_token: csrf } = (await login.json()) as { csrf_token: string };
    expect((await fetch(`${origin}/api/v1/runs`, { headers: { cookie } })).status).toBe(200);
    const write = (headers: Record<string, string>) => fetch(`${origin}/api/v1/conversations`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body: '{}' });
    const without = await write({});
    expect(without.status).toBe(403);
    expect(((await without.json()) as { error: { name: string } }).error.name).toBe('CsrfTokenMissing');
    expect((await write({ 'x-csrf-token': 'forged' })).status).toBe(403);
    expect((await write({ 'x-csrf-token': csrf })).status).toBe(200);
  });

  it('records stored before accounts belong to the first admin, and to nobody else', async () => {
    // A run of the CLI: stored without an account.
    const { runTask } = await import('../src/compose/index.js');
    const cliRun = await runTask(runtime, { task: 'a quick question', model: MODEL });
    expect((await runtime.store.runs.get(cliRun.run_id))?.userId).toBeNull();
    expect((await ada.getRun(cliRun.run_id)).run_id).toBe(cliRun.run_id);
    expect((await ada.listRuns({ limit: 200 })).runs.map((run) => run.run_id)).toContain(cliRun.run_id);
    expect(await bob.getRun(cliRun.run_id).catch((error: unknown) => error)).toMatchObject({ status: 404 });
    expect((await bob.listRuns({ limit: 200 })).runs.map((run) => run.run_id)).not.toContain(cliRun.run_id);
    // Nor can a prefix probe for it.
    expect(await bob.getRun(cliRun.run_id.slice(0, 6)).catch((error: unknown) => error)).toMatchObject({ status: 404 });
    // Usage sums one's own runs only; a direct tool call is a run of the caller's.
    const call = await fetch(`${origin}/api/v1/tools/lookup/call`, { method: 'POST', headers: { authorization: `Bearer ${bobToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ input: { key: 'bob' } }) });
    const called = (await call.json()) as { run_id: string; status: string; output: string };
    expect(called).toMatchObject({ status: 'completed' });
    expect(called.output).toContain('fact about bob');
    expect((await runtime.store.runs.get(called.run_id))?.userId).toBe((await runtime.accounts.requireUser('bob@example.com')).id);
    const usageOf = async (token: string) => (await (await fetch(`${origin}/api/v1/usage`, { headers: { authorization: `Bearer ${token}` } })).json()) as { runs: number };
    expect((await usageOf(bobToken)).runs).toBe((await bob.listRuns({ limit: 200 })).runs.length);
    expect((await usageOf(adaToken)).runs).toBe((await ada.listRuns({ limit: 200 })).runs.length);
    expect((await usageOf(adaToken)).runs).toBeGreaterThan(0);
  });

  it('approvals: another account can neither see nor answer a waiting call; the owner approves and the tool runs once', async () => {
    const runId = await waitingRun();
    expect((await bob.listApprovals()).map((approval) => approval.run_id)).not.toContain(runId);
    expect(await bob.answerApproval(runId, 'ledger_1', 'approve').catch((error: unknown) => error)).toMatchObject({ status: 404 });
    expect(ledger).toEqual([]);
    expect((await ada.listApprovals()).map((approval) => approval.run_id)).toContain(runId);
    const paused = await runtime.store.events.list(runId);
    expect(await ada.answerApproval(runId, 'ledger_1', 'approve')).toMatchObject({ approval: { status: 'approved' }, resumed: true });
    const rest = await ada.readEvents(runId, { afterSeq: paused.at(-1)!.seq });
    expect(rest.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Written.' });
    expect(ledger).toEqual([{ entry: 'paid' }]);
  });

  it('serves /mcp to a service key with the tools:write scope only', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const withScope = (await ada.createApiKey({ name: 'mcp', scopes: ['tools:write'] })).key;
    const withoutScope = (await ada.createApiKey({ name: 'reader', scopes: ['runs:read'] })).key;
    const initialize = (headers: Record<string, string>) =>
      fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
    expect((await initialize({})).status).toBe(401);
    expect((await initialize({ 'x-api-key': withoutScope })).status).toBe(403);
    const client = new Client({ name: 'accounts-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { 'x-api-key': withScope } } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup']);
    } finally {
      await client.close();
    }
  });

  it('authorization matrix over every route: anonymous, owner, other account, key with and without the scope, revoked key', async () => {
    const conversation = await ada.createConversation('ada only');
    const finishedRun = await ada.startRun({ task: 'a quick question', model: MODEL });
    await ada.readEvents(finishedRun.run_id);
    await settled(finishedRun.run_id);
    const ownKey = await ada.createApiKey({ name: 'to revoke', scopes: ['runs:read'] });
    const adaId = (await runtime.accounts.requireUser('ada@example.com')).id;
    const toolRun = await ada.startRun({ task: 'look up forge', model: MODEL });
    await ada.readEvents(toolRun.run_id);
    await settled(toolRun.run_id);
    const skill = (await ada.saveSkill({ run_id: toolRun.run_id, name: 'ada-lookup' })).skill.skill;
    const adaDocument = ((await (await fetch(`${origin}/api/v1/skills/${skill}`, { headers: { authorization: `Bearer ${adaToken}` } })).json()) as { document: Record<string, unknown> }).document;
    const product = { skill, description: 'Looks things up.', price_minor: 0, currency: 'EUR' };
    await ada.publishProduct({ ...product, name: 'ada-product' });
    const purchase = await ada.runProduct('ada-product', { key: 'forge' });
    await runtime.marketplace.settled();
    const grantRun = await waitingRun();
    await ada.answerApproval(grantRun, 'ledger_1', 'approve', { always: 'run' });
    await settled(grantRun);
    const freshGrant = async () => {
      const runId = await waitingRun();
      const answered = await ada.answerApproval(runId, 'ledger_1', 'approve', { always: 'run' });
      await settled(runId);
      return { grant_id: answered.grant!.id };
    };
    // Agents are the installation's: anyone signed in reads and runs them, only an admin changes them.
    const agentDefinition = (slug: string, prompt = 'You answer.') => ({ version: 1 as const, name: 'Matrix agent', slug, system_prompt: prompt });
    await ada.createAgent(agentDefinition('matrix-agent'));
    const freshAgent = async () => {
      const slug = `matrix-${Math.random().toString(36).slice(2, 8)}`;
      await ada.createAgent(agentDefinition(slug));
      return { slug };
    };
    // An agent at version 1 whatever an earlier caller saved, so each caller's edit is a real change.
    const agentToEdit = async () => {
      if ((await ada.listAgents()).some((agent) => agent.slug === 'matrix-edit')) await ada.removeAgent('matrix-edit');
      await ada.createAgent(agentDefinition('matrix-edit'));
      return { slug: 'matrix-edit' };
    };
    const run = async () => ({ run_id: finishedRun.run_id });
    const waiting = async () => ({ run_id: await waitingRun(), call_id: 'ledger_1' });
    const rows: Record<string, MatrixRow> = {
      'GET /health': { params: async () => ({}), touches: 'self' },
      'GET /ready': { params: async () => ({}), touches: 'self' },
      'POST /runs': { params: async () => ({}), body: { task: 'matrix run', model: MODEL }, touches: 'creates' },
      'GET /runs': { params: async () => ({}), touches: 'list' },
      'GET /runs/:run_id': { params: run, touches: 'record' },
      'POST /runs/:run_id/cancel': { params: waiting, body: {}, touches: 'record' },
      'POST /runs/:run_id/resume': { params: waiting, body: {}, touches: 'record' },
      'GET /runs/:run_id/events': { params: run, touches: 'record' },
      'GET /runs/:run_id/log': { params: run, touches: 'record' },
      'GET /conversations': { params: async () => ({}), touches: 'list' },
      'POST /conversations': { params: async () => ({}), body: {}, touches: 'creates' },
      'GET /conversations/:conversation_id': { params: async () => ({ conversation_id: conversation.conversation_id }), touches: 'record' },
      'POST /conversations/:conversation_id/messages': { params: async () => ({ conversation_id: conversation.conversation_id }), body: { content: 'matrix run', model: MODEL }, touches: 'record' },
      'GET /approvals': { params: async () => ({}), touches: 'list' },
      'POST /approvals/:run_id/:call_id/approve': { params: waiting, body: {}, touches: 'record' },
      'POST /approvals/:run_id/:call_id/deny': { params: waiting, body: { reason: 'not now' }, touches: 'record' },
      'GET /approvals/grants': { params: async () => ({}), touches: 'list' },
      'POST /approvals/grants/:grant_id/revoke': { params: freshGrant, body: {}, touches: 'record' },
      'GET /policy': { params: async () => ({}), touches: 'self' },
      'GET /policy/versions': { params: async () => ({}), touches: 'self' },
      'POST /policy/test': { params: async () => ({}), body: { tool: 'lookup', input: { key: 'matrix' } }, touches: 'self' },
      'POST /policy/rules': { params: async () => ({}), body: { rule: { tool: 'lookup', decision: 'allow' }, message: 'matrix' }, touches: 'installation' },
      'POST /policy/rules/remove': { params: async () => ({}), body: { tool: 'no_such_tool' }, touches: 'installation' },
      'POST /policy/defaults': { params: async () => ({}), body: { risk: 'low', decision: 'allow' }, touches: 'installation' },
      'POST /policy/replace': { params: async () => ({}), body: { document: { version: 1, rules: [] } }, touches: 'installation' },
      'POST /policy/rollback': { params: async () => ({}), body: { version: 1 }, touches: 'installation' },
      'GET /agents': { params: async () => ({}), touches: 'self' },
      'POST /agents': { params: async () => ({}), body: agentDefinition('matrix-created'), touches: 'installation' },
      'GET /agents/:agent': { params: async () => ({ agent: 'matrix-agent@1' }), touches: 'self' },
      'GET /agents/:agent/export': { params: async () => ({ agent: 'matrix-agent' }), touches: 'self' },
      'GET /agents/:slug/versions': { params: async () => ({ slug: 'matrix-agent' }), touches: 'self' },
      'GET /agents/:slug/diff': { params: async () => ({ slug: 'matrix-agent' }), touches: 'self' },
      'POST /agents/:slug/versions': { params: agentToEdit, body: { definition: agentDefinition('matrix-edit', 'You answer briefly.'), message: 'matrix' }, touches: 'installation' },
      'POST /agents/:slug/rollback': { params: async () => ({ slug: 'matrix-agent' }), body: { version: 1 }, touches: 'installation' },
      'POST /agents/:slug/remove': { params: freshAgent, touches: 'installation' },
      'POST /agents/:agent/runs': { params: async () => ({ agent: 'matrix-agent' }), body: { task: 'matrix run', model: MODEL }, touches: 'creates' },
      'POST /auth/login': { params: async () => ({}), body: { email: 'bob@example.com', password: PASSWORD }, touches: 'self' },
      'POST /auth/refresh': { params: async () => ({}), body: { refresh_token: 'nosuchsession.secret' }, touches: 'self' },
      'POST /auth/signup': { params: async () => ({}), body: { email: 'mallory@example.com', password: PASSWORD }, touches: 'self' },
      'GET /auth/me': { params: async () => ({}), touches: 'self' },
      'GET /auth/session': { params: async () => ({}), touches: 'self' },
      'POST /auth/logout': { params: async () => ({}), body: {}, touches: 'self' },
      'GET /api-keys': { params: async () => ({}), touches: 'list' },
      'POST /api-keys': { params: async () => ({}), body: { name: 'matrix', scopes: ['runs:read'] }, touches: 'creates', sessionOnly: true },
      'POST /skills': { params: async () => ({}), body: { run_id: toolRun.run_id, name: 'matrix-skill' }, touches: 'record' },
      'GET /skills': { params: async () => ({}), touches: 'list' },
      'GET /skills/:skill': { params: async () => ({ skill }), touches: 'record' },
      'GET /skills/:skill/versions': { params: async () => ({ skill }), touches: 'record' },
      'POST /skills/:skill/test': { params: async () => ({ skill }), touches: 'record' },
      'POST /skills/import': { params: async () => ({}), body: { document: { ...adaDocument, name: 'matrix-import' } }, touches: 'creates' },
      'POST /skills/:skill/run': { params: async () => ({ skill }), body: { inputs: { key: 'forge' } }, touches: 'record' },
      'POST /marketplace/products': { params: async () => ({}), body: { ...product, name: 'matrix-product' }, touches: 'record' },
      'POST /marketplace/products/:product/unpublish': { params: async () => ({ product: (await ada.publishProduct({ ...product, name: `matrix-unpublish-${Math.random().toString(36).slice(2, 8)}` })).product }), touches: 'record' },
      'GET /marketplace/products': { params: async () => ({}), touches: 'self' },
      'GET /marketplace/products/:product': { params: async () => ({ product: 'ada-product' }), touches: 'self' },
      'POST /marketplace/products/:product/runs': { params: async () => ({ product: 'ada-product' }), body: { inputs: { key: 'forge' } }, touches: 'self' },
      'GET /marketplace/purchases/:purchase_id': { params: async () => ({ purchase_id: purchase.purchase_id }), touches: 'record' },
      'GET /marketplace/usage': { params: async () => ({}), touches: 'list' },
      'GET /settings/provider-keys': { params: async () => ({}), touches: 'list' },
      'POST /settings/provider-keys': { params: async () => ({}), body: { provider: 'openrouter', key: 'sk-or-matrix-12345678' }, touches: 'creates' },
      'POST /settings/provider-keys/:provider/remove': {
        params: async () => {
          await runtime.providerKeys.set((await runtime.accounts.requireUser('ada@example.com')).id, 'anthropic', 'sk-ant-matrix-12345678');
          return { provider: 'anthropic' };
        },
        touches: 'record',
      },
      'GET /tools': { params: async () => ({}), touches: 'self' },
      'POST /tools/:tool/call': { params: async () => ({ tool: 'lookup' }), body: { input: { key: 'matrix' } }, touches: 'creates' },
      'GET /usage': { params: async () => ({}), touches: 'self' },
      'GET /tools/:tool': { params: async () => ({ tool: 'lookup' }), touches: 'self' },
      'POST /tools': { params: async () => ({}), body: { tool_source: 'export default 1;', test_source: 'export default 2;' }, touches: 'installation' },
      'POST /tools/:tool/promote': { params: async () => ({ tool: 'no_such_tool' }), touches: 'installation' },
      'GET /mcp-servers': { params: async () => ({}), touches: 'installation' },
      'POST /mcp-servers': { params: async () => ({}), body: { name: 'matrix', url: 'http://127.0.0.1:9/mcp' }, touches: 'installation' },
      'POST /mcp-servers/:server/remove': { params: async () => ({ server: 'no-such-server' }), touches: 'installation' },
      'POST /mcp-servers/:server/refresh': { params: async () => ({ server: 'no-such-server' }), touches: 'installation' },
      'GET /toolbox': { params: async () => ({}), touches: 'installation' },
      'GET /users': { params: async () => ({}), touches: 'installation' },
      'GET /accounts/:account_id/quota': { params: async () => ({ account_id: adaId }), touches: 'installation' },
      'PUT /accounts/:account_id/quota': { params: async () => ({ account_id: adaId }), body: {}, touches: 'installation' },
      'DELETE /accounts/:account_id/quota': { params: async () => ({ account_id: adaId }), touches: 'installation' },
      'GET /accounts/:account_id/api-keys/:key_id/quota': { params: async () => ({ account_id: adaId, key_id: ownKey.api_key.key_id }), touches: 'installation' },
      'PUT /accounts/:account_id/api-keys/:key_id/quota': { params: async () => ({ account_id: adaId, key_id: ownKey.api_key.key_id }), body: {}, touches: 'installation' },
      'DELETE /accounts/:account_id/api-keys/:key_id/quota': { params: async () => ({ account_id: adaId, key_id: ownKey.api_key.key_id }), touches: 'installation' },
      'POST /api-keys/:key_id/revoke': { params: async () => ({ key_id: (await ada.createApiKey({ name: 'matrix revoke', scopes: ['runs:read'] })).api_key.key_id }), touches: 'record' },
    };
    const keyOf = (route: ApiRoute): string => `${route.method.toUpperCase()} ${route.path}`;
    expect(apiRoutes.map(keyOf).filter((key) => rows[key] === undefined), 'every route has a row of the matrix').toEqual([]);

    const keys = new Map<string, string>();
    const keyFor = async (scopes: ApiScope[]) => {
      const name = scopes.join(',');
      if (!keys.has(name)) keys.set(name, (await ada.createApiKey({ name: 'matrix', scopes })).key);
      return keys.get(name)!;
    };
    const revoked = (await ada.createApiKey({ name: 'revoked', scopes: [...API_SCOPES] })).key;
    await ada.revokeApiKey(revoked.split('_')[1]!);
    // Logout ends the session that sends it: it gets a session of its own, and runs last.
    const ordered = [...apiRoutes].sort((a, b) => Number(a.path === '/auth/logout') - Number(b.path === '/auth/logout'));
    const adaRecords = JSON.stringify([finishedRun.run_id, grantRun, conversation.conversation_id, ownKey.api_key.key_id, skill, purchase.purchase_id]);

    for (const route of ordered) {
      const row = rows[keyOf(route)]!;
      const statuses: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const params = await row.params();
        const url = `${origin}${route.root === true ? '' : '/api/v1'}${route.path.replace(/:([a-z_]+)/g, (_match, name: string) => encodeURIComponent(params[name]!))}`;
        const sendsBody = route.method === 'post' || route.method === 'put';
        const headers: Record<string, string> = sendsBody ? { 'content-type': 'application/json' } : {};
        if (caller === 'owner') headers['authorization'] = `Bearer ${route.path === '/auth/logout' ? (await new ForgeClient({ baseUrl: origin }).login('ada@example.com', PASSWORD)).access_token : adaToken}`;
        if (caller === 'other') headers['authorization'] = `Bearer ${route.path === '/auth/logout' ? (await new ForgeClient({ baseUrl: origin }).login('bob@example.com', PASSWORD)).access_token : bobToken}`;
        if (caller === 'revoked-key') headers['x-api-key'] = revoked;
        const scoped = route.access !== 'public' && route.access !== 'signed-in';
        if (caller === 'key-with-scope') headers['x-api-key'] = await keyFor(scoped ? [route.access as ApiScope] : ['runs:read']);
        if (caller === 'key-without-scope') headers['x-api-key'] = await keyFor(API_SCOPES.filter((scope) => scope !== route.access));
        const response = await fetch(url, { method: route.method.toUpperCase(), headers, ...(sendsBody ? { body: JSON.stringify(row.body ?? {}) } : {}) });
        const text = route.response === 'event-stream' ? (await response.body?.cancel(), '') : await response.text();
        statuses[caller] = response.status;
        const label = `${keyOf(route)} as ${caller}: ${response.status} ${text.slice(0, 200)}`;
        if (route.access === 'public') continue;
        if (caller === 'anonymous' || caller === 'revoked-key') expect(response.status, label).toBe(401);
        else if (caller === 'key-without-scope' && scoped) expect(response.status, label).toBe(403);
        else if (caller === 'key-with-scope' && row.sessionOnly === true) expect(response.status, label).toBe(403);
        else if (caller === 'other' && row.touches === 'record') expect(response.status, label).toBe(404);
        // The installation's toolbox and MCP connections: admins only (ada is one, bob is not).
        else if (caller === 'other' && row.touches === 'installation') expect(response.status, label).toBe(403);
        else if (row.touches === 'installation') expect([401, 403], label).not.toContain(response.status);
        else if (caller === 'other' && row.touches === 'list') {
          expect(response.status, label).toBe(200);
          for (const id of JSON.parse(adaRecords) as string[]) expect(text, label).not.toContain(id);
        } else expect([401, 403, 404], label).not.toContain(response.status);
      }
      // A public route answers the same whoever asks.
      if (route.access === 'public') expect(new Set(Object.values(statuses)).size, `${keyOf(route)}: ${JSON.stringify(statuses)}`).toBe(1);
    }
    // Nothing another account did above touched ada's records.
    expect((await ada.getConversation(conversation.conversation_id)).conversation.title).toBe('ada only');
    expect((await ada.listApiKeys()).find((key) => key.key_id === ownKey.api_key.key_id)?.revoked_at).toBeNull();
    expect((await ada.getProduct('ada-product')).product).toBe('ada-product');
    await runtime.marketplace.settled();
  }, 120_000);
});
