import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { startFixtureMcpServer, type FixtureMcpServer } from './fixtures/mcp/fixture-mcp-server.js';

const PASSWORD = 'a long enough password';

/** The installation's MCP connections over the API: an admin connects one and its tools join the catalog; a user cannot. */
describe('MCP connections over the API', () => {
  let mcpServer: FixtureMcpServer;
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;

  beforeAll(async () => {
    mcpServer = await startFixtureMcpServer({
      name: 'fixture',
      tools: { add: { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, handler: (args) => ({ content: [{ type: 'text', text: String(Number(args['a']) + Number(args['b'])) }] }) } },
    });
    home = await mkdtemp(path.join(tmpdir(), 'forge-installation-'));
    runtime = await openRuntime({ FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${mcpServer.port}` }, home, { mcp: { startupWaitMs: 0 } });
    await runtime.accounts.addUser({ email: 'admin@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'user@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts' });
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await mcpServer?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('an admin connects a server (header sealed, never shown), its tools can be called, and it can be removed; a user can do none of it', async () => {
    const token = async (email: string) => (await new ForgeClient({ baseUrl: server.listener.origin }).login(email, PASSWORD)).access_token;
    const admin = await token('admin@example.com');
    const user = await token('user@example.com');
    const call = (method: string, route: string, bearer: string, body?: unknown) =>
      fetch(`${server.listener.origin}/api/v1${route}`, { method, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

    const refused = await call('POST', '/mcp-servers', user, { name: 'calc', url: mcpServer.url });
    expect(refused.status).toBe(403);
    expect((await call('GET', '/mcp-servers', user)).status).toBe(403);

    const added = await call('POST', '/mcp-servers', admin, { name: 'calc', url: mcpServer.url, headers: { authorization: 'Bearer mcp-secret-value-123' } });
    const body = (await added.json()) as { state: string; tools: string[]; headers: string[] };
    expect(added.status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ state: 'connected', tools: ['mcp__calc__add'], headers: ['authorization'] });
    expect(JSON.stringify(body)).not.toContain('mcp-secret-value-123');
    const listed = await (await call('GET', '/mcp-servers', admin)).text();
    expect(listed).not.toContain('mcp-secret-value-123');

    // Every account's runs may call the installation's tools.
    const tools = (await (await call('GET', '/tools', user)).json()) as { tools: { name: string }[] };
    expect(tools.tools.map((tool) => tool.name)).toContain('mcp__calc__add');
    const sum = (await (await call('POST', '/tools/mcp__calc__add/call', user, { input: { a: 2, b: 3 } })).json()) as { status: string; output: string };
    expect(sum).toMatchObject({ status: 'completed' });
    expect(sum.output).toContain('5');

    expect((await call('POST', '/mcp-servers/calc/remove', user)).status).toBe(403);
    const removed = (await (await call('POST', '/mcp-servers/calc/remove', admin)).json()) as { mcp_servers: unknown[] };
    expect(removed.mcp_servers).toEqual([]);
    expect(((await (await call('GET', '/tools', admin)).json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).not.toContain('mcp__calc__add');
  });
});
