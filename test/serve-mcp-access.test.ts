import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiKeyService } from '../src/accounts/index.js';
import { ForgeClient } from '../src/client/index.js';
import { defineTool, type ApiScope } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';

/**
 * The `/mcp` endpoint of `forge serve --auth accounts` under the REST API's authorization matrix (issue
 * 26, "also attack"): no credentials, revoked and expired keys, keys without the scope an operation
 * needs, another account's published skills (listed and called), another account's session. Every
 * row goes through the MCP SDK's own client over real HTTP.
 */
describe('/mcp under the authorization matrix', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let ada: ForgeClient;
  let bob: ForgeClient;
  let adaId: string;
  let adaToken: string;
  let bobToken: string;
  const lookups: string[] = [];

  const headersOf = (credential: { key?: string; token?: string }): Record<string, string> => (credential.key !== undefined ? { 'x-api-key': credential.key } : { authorization: `Bearer ${credential.token}` });

  async function connect(credential: { key?: string; token?: string }): Promise<Client> {
    const client = new Client({ name: 'matrix', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: headersOf(credential) } }));
    return client;
  }

  /** The HTTP status an initialize is answered with. */
  async function initializeStatus(headers: Record<string, string>): Promise<number> {
    const response = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    await response.body?.cancel();
    return response.status;
  }

  const key = async (client: ForgeClient, scopes: ApiScope[]) => (await client.createApiKey({ name: scopes.join(' ') || 'none', scopes })).key;

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'ada looks up forge', hasToolResult: false }, { toolCalls: [{ id: 'ada_lookup', name: 'lookup', arguments: { key: 'forge' } }] });
    mock.on({ toolCallId: 'ada_lookup' }, { content: 'Forge is an agent engine.' });
    mock.on({ userMessage: 'bob looks up payroll', hasToolResult: false }, { toolCalls: [{ id: 'bob_lookup', name: 'lookup', arguments: { key: 'payroll' } }] });
    mock.on({ toolCallId: 'bob_lookup' }, { content: 'Payroll is private.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-mcp-access-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_API_RATE_LIMIT: '0' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(
      defineTool({
        name: 'lookup',
        description: 'Looks a key up.',
        inputSchema: z.object({ key: z.string() }),
        risk: 'low',
        sideEffect: 'read',
        execute: async ({ key: looked }) => {
          lookups.push(looked);
          return { key: looked, fact: `fact about ${looked}` };
        },
      }),
    );
    // The installation's first admin owns what is stored without an owner; ada and bob are plain accounts.
    await runtime.accounts.addUser({ email: 'root@example.com', password: PASSWORD, role: 'admin' });
    adaId = (await runtime.accounts.addUser({ email: 'ada@example.com', password: PASSWORD })).id;
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', webRoot: null, mcp: { exposedTools: ['lookup'], publishedSkills: ['ada-lookup', 'bob-payroll'] } });
    origin = server.listener.origin;
    ada = new ForgeClient({ baseUrl: origin });
    adaToken = (await ada.login('ada@example.com', PASSWORD)).access_token;
    bob = new ForgeClient({ baseUrl: origin });
    bobToken = (await bob.login('bob@example.com', PASSWORD)).access_token;
    for (const [client, task, name] of [[ada, 'ada looks up forge', 'ada-lookup'], [bob, 'bob looks up payroll', 'bob-payroll']] as const) {
      const run = await client.startRun({ task, model: MODEL });
      await client.readEvents(run.run_id);
      for await (const _event of runtime.runs.eventsAfter(run.run_id, Number.MAX_SAFE_INTEGER - 1)) {
        // Settled: the run service no longer runs it.
      }
      await client.saveSkill({ run_id: run.run_id, name });
    }
    lookups.length = 0;
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await mock.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('refuses no credentials, a revoked key, an expired key and a key with no MCP scope', async () => {
    const revoked = await ada.createApiKey({ name: 'revoked', scopes: ['tools:write', 'skills:run'] });
    await ada.revokeApiKey(revoked.api_key.key_id);
    const yearAgo = new ApiKeyService(runtime.store.accounts, () => new Date(Date.now() - 365 * 86_400_000));
    const expired = (await yearAgo.createFor(adaId, { name: 'expired', scopes: ['tools:write', 'skills:run'], expires_in_days: 1 })).key;

    expect(await initializeStatus({})).toBe(401);
    expect(await initializeStatus({ 'x-api-key': revoked.key })).toBe(401);
    expect(await initializeStatus({ 'x-api-key': expired })).toBe(401);
    expect(await initializeStatus({ 'x-api-key': await key(ada, ['runs:read']) })).toBe(403);
  });

  it("lists and calls only the caller's own skills, never another account's", async () => {
    const client = await connect({ token: adaToken });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('skill_ada-lookup');
      expect(names).not.toContain('skill_bob-payroll');

      const foreign = (await client.callTool({ name: 'skill_bob-payroll', arguments: { key: 'payroll' } }).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }))) as CallToolResult;
      expect(foreign.isError).toBe(true);
      expect(lookups).not.toContain('payroll');

      const own = (await client.callTool({ name: 'skill_ada-lookup', arguments: { key: 'forge' } })) as CallToolResult;
      expect(own.isError ?? false).toBe(false);
      expect(lookups).toEqual(['forge']);
      // The replay is ada's run: she sees it, bob does not.
      const runId = (own.structuredContent as { run_id: string }).run_id;
      expect((await ada.listRuns()).runs.map((run) => run.run_id)).toContain(runId);
      expect((await bob.listRuns()).runs.map((run) => run.run_id)).not.toContain(runId);
    } finally {
      await client.close();
    }
  });

  it('holds each operation to its scope: tools:write calls tools, skills:run runs skills', async () => {
    const toolsOnly = await connect({ key: await key(ada, ['tools:write']) });
    try {
      expect((await toolsOnly.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup']);
      const refused = (await toolsOnly.callTool({ name: 'skill_ada-lookup', arguments: { key: 'forge' } }).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }))) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await toolsOnly.close();
    }
    const skillsOnly = await connect({ key: await key(ada, ['skills:run']) });
    try {
      expect((await skillsOnly.listTools()).tools.map((tool) => tool.name)).toEqual(['skill_ada-lookup']);
      const refused = (await skillsOnly.callTool({ name: 'lookup', arguments: { key: 'secret' } }).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }))) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(lookups).not.toContain('secret');
    } finally {
      await skillsOnly.close();
    }
  });

  it("refuses a request on another account's session, and a key revoked during its session", async () => {
    const adaKey = await ada.createApiKey({ name: 'session', scopes: ['tools:write', 'skills:run'] });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { 'x-api-key': adaKey.key } } });
    const client = new Client({ name: 'matrix', version: '1.0.0' });
    await client.connect(transport);
    try {
      const hijack = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-03-26', authorization: `Bearer ${bobToken}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'skill_ada-lookup', arguments: { key: 'hijacked' } } }),
      });
      await hijack.body?.cancel();
      expect(hijack.status).toBe(404);
      expect(lookups).not.toContain('hijacked');

      await ada.revokeApiKey(adaKey.api_key.key_id);
      await expect(client.callTool({ name: 'lookup', arguments: { key: 'after-revoke' } })).rejects.toThrow();
      expect(lookups).not.toContain('after-revoke');
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
