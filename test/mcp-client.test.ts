import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ForgeEvent, Store } from '../src/core/index.js';
import { refuseApprovals } from '../src/engine/index.js';
import { builtInPolicy } from '../src/policy/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { SecretRedactor } from '../src/security/redaction/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { createSecretBox } from '../src/adapters/store/index.js';
import { ToolRegistry, dispatchToolCall } from '../src/tools/index.js';
import { McpConnectionError, McpConnectionManager, mcpToolName } from '../src/tools/mcp/index.js';
import { createGuardedStreamFetch } from '../src/security/index.js';
import { startFixtureMcpServer, type FixtureMcpServer, type FixtureTool } from './fixtures/mcp/fixture-mcp-server.js';

const echoTool = (label: string): FixtureTool => ({
  description: `Echoes a message (${label}).`,
  inputSchema: { message: z.string(), times: z.number().int().min(1).optional() },
  annotations: { readOnlyHint: true },
  handler: (args) => ({ content: [{ type: 'text', text: `${label}: ${String(args['message']).repeat(Number(args['times'] ?? 1))}` }] }),
});

interface Harness {
  store: Store;
  registry: ToolRegistry;
  manager: McpConnectionManager;
  events: ForgeEvent[];
  call(name: string, input: unknown): ReturnType<typeof dispatchToolCall>;
}

const servers: FixtureMcpServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function fixture(options: Parameters<typeof startFixtureMcpServer>[0]): Promise<FixtureMcpServer> {
  const server = await startFixtureMcpServer(options);
  servers.push(server);
  return server;
}

async function harness(allowed: readonly FixtureMcpServer[], stdio: 'allow' | 'refuse' = 'refuse'): Promise<Harness> {
  const store = await openStore({ url: ':memory:' });
  const registry = new ToolRegistry();
  const manager = new McpConnectionManager({
    store: store.mcpServers,
    registry,
    secrets: createSecretBox(randomBytes(32)),
    redactor: new SecretRedactor(),
    fetch: createGuardedStreamFetch({ allowHosts: allowed.map((server) => `127.0.0.1:${server.port}`) }),
    stdio,
    timeoutMs: 5_000,
    backoff: { initialMs: 50, maxMs: 200 },
    clientInfo: { name: 'forge-test', version: '0.0.0' },
  });
  cleanups.push(async () => {
    await manager.close();
    await store.close();
  });
  const bus = new InProcessEventBus();
  const events: ForgeEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const emitter = createRunEmitter(bus, 'run-mcp');
  const call = (name: string, input: unknown) =>
    dispatchToolCall(
      { name, input, callId: `call-${events.length}`, iteration: null },
      {
        tools: registry.snapshot(),
        policy: builtInPolicy,
        approvals: refuseApprovals,
        emitter,
        context: { runId: 'run-mcp', signal: AbortSignal.timeout(10_000), fetch: async () => Promise.reject(new Error('unused')), utilityModel: undefined },
      },
    );
  return { store, registry, manager, events, call };
}

describe('MCP client: remote tools as native tools', () => {
  it('lets two servers expose the same tool name side by side, each answering for itself', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha') } });
    const beta = await fixture({ name: 'beta', tools: { echo: echoTool('beta') } });
    const { manager, registry, call } = await harness([alpha, beta]);

    await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http' });
    await manager.add({ name: 'beta', url: beta.url, transport: 'streamable-http' });

    expect(registry.names().filter((name) => name.startsWith('mcp__')).sort()).toEqual(['mcp__alpha__echo', 'mcp__beta__echo']);
    const fromAlpha = await call('mcp__alpha__echo', { message: 'hi' });
    const fromBeta = await call('mcp__beta__echo', { message: 'hi', times: 2 });
    expect(fromAlpha).toMatchObject({ ok: true, value: 'alpha: hi', untrusted: true });
    expect(fromBeta).toMatchObject({ ok: true, value: 'beta: hihi' });
    // The model sees the server's own schema, not a round trip through zod.
    expect(registry.specification('mcp__alpha__echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
      required: ['message'],
    });
    // A server's readOnlyHint is an untrusted claim: it neither lowers the risk below medium nor makes the tool read-only.
    expect(registry.get('mcp__alpha__echo')).toMatchObject({ risk: 'medium', sideEffect: 'write', external: true });
  });

  it('believes readOnlyHint only for a server added with trustAnnotations, and only for tools that say it', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha'), erase: { ...echoTool('alpha'), annotations: { readOnlyHint: false, destructiveHint: true } } } });
    const { manager, registry, store } = await harness([alpha]);

    const status = await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http', trustAnnotations: true });

    expect(status.trustAnnotations).toBe(true);
    // Trusted, readOnlyHint makes it a read for the skills' write gate; its risk stays medium all the same.
    expect(registry.get('mcp__alpha__echo')).toMatchObject({ sideEffect: 'read', risk: 'medium' });
    expect(registry.get('mcp__alpha__erase')).toMatchObject({ sideEffect: 'write', risk: 'high' });
    expect((await store.mcpServers.get('alpha'))?.trustAnnotations).toBe(true);
  });

  it('validates input against the remote schema before anything is sent, naming the bad field', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha') } });
    const { manager, call } = await harness([alpha]);
    await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http' });
    const requestsBefore = alpha.authorizations.length;

    const outcome = await call('mcp__alpha__echo', { message: 42 });

    expect(outcome.ok).toBe(false);
    expect(outcome).toMatchObject({ error: { name: 'ToolInputError' } });
    expect(outcome.output).toMatch(/message: .*expected string/);
    expect(alpha.authorizations.length).toBe(requestsBefore);
  });

  it('maps a result flagged isError and a protocol error to tool errors carrying the server\'s message', async () => {
    const alpha = await fixture({
      name: 'alpha',
      tools: {
        explode: { description: 'Always fails.', inputSchema: {}, handler: () => ({ isError: true, content: [{ type: 'text', text: 'the widget is jammed' }] }) },
      },
    });
    const { manager, call } = await harness([alpha]);
    await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http' });

    const failed = await call('mcp__alpha__explode', {});
    alpha.removeTool('explode');
    // The registry still has the tool until the change notification lands; the server refuses the call.
    const refused = await call('mcp__alpha__explode', {});

    expect(failed).toMatchObject({ ok: false, error: { name: 'McpToolCallError' } });
    expect(failed.output).toContain('the widget is jammed');
    if (refused.ok) throw new Error('a removed tool answered');
    expect(['McpToolCallError', 'ToolNotFoundError']).toContain(refused.error.name);
    expect(manager.status('alpha').state).toBe('connected');
  });

  it('follows tools/list_changed: added tools register, removed tools unregister; refresh agrees', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha') } });
    const { manager, registry, call } = await harness([alpha]);
    await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http' });

    alpha.addTool('shout', { description: 'Shouts.', inputSchema: { text: z.string() }, handler: (args) => ({ content: [{ type: 'text', text: String(args['text']).toUpperCase() }] }) });
    await expect.poll(() => registry.names().includes('mcp__alpha__shout'), { timeout: 5_000 }).toBe(true);
    expect(await call('mcp__alpha__shout', { text: 'quiet' })).toMatchObject({ ok: true, value: 'QUIET' });

    alpha.removeTool('echo');
    await expect.poll(() => registry.names().includes('mcp__alpha__echo'), { timeout: 5_000 }).toBe(false);

    const refreshed = await manager.refresh('alpha');
    expect(refreshed.tools).toEqual(['mcp__alpha__shout']);
    expect(manager.tools('alpha').map((tool) => tool.remoteName)).toEqual(['shout']);
  });

  it('connects over the legacy HTTP+SSE transport too', async () => {
    const legacy = await fixture({ name: 'legacy', tools: { echo: echoTool('legacy') }, transport: 'sse' });
    const { manager, call } = await harness([legacy]);

    const status = await manager.add({ name: 'legacy', url: legacy.url, transport: 'sse' });

    expect(status).toMatchObject({ state: 'connected', transport: 'sse', tools: ['mcp__legacy__echo'] });
    expect(await call('mcp__legacy__echo', { message: 'old school' })).toMatchObject({ ok: true, value: 'legacy: old school' });
  });

  it('sends stored headers on every request and keeps them sealed at rest', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha') } });
    const { manager, store, call } = await harness([alpha]);

    const status = await manager.add({ name: 'alpha', url: `${alpha.url}?token=abc123`, transport: 'streamable-http', headers: { Authorization: 'Bearer top-secret-token' } });
    await call('mcp__alpha__echo', { message: 'x' });

    expect(alpha.authorizations.length).toBeGreaterThan(2);
    expect(new Set(alpha.authorizations)).toEqual(new Set(['Bearer top-secret-token']));
    const record = await store.mcpServers.get('alpha');
    // Sealed (AES-256-GCM) under the installation key, whose id it names.
    expect(record?.sealedHeaders).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(JSON.stringify(record)).not.toContain('top-secret-token');
    expect(JSON.stringify(status)).not.toContain('top-secret-token');
    expect(status.headers).toEqual(['Authorization']);
    expect(status.url).not.toContain('abc123');
  });

  it('refuses a loopback server that FORGE_ALLOW_HOSTS does not list, and stores nothing', async () => {
    const alpha = await fixture({ name: 'alpha', tools: { echo: echoTool('alpha') } });
    const { manager, store, registry } = await harness([]);

    const error = await manager.add({ name: 'alpha', url: alpha.url, transport: 'streamable-http' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ permanent: true });
    expect((error as Error).message).toMatch(/loopback/);
    expect((error as McpConnectionError).hint).toContain(`FORGE_ALLOW_HOSTS=127.0.0.1:${alpha.port}`);
    expect(alpha.authorizations).toEqual([]);
    expect(await store.mcpServers.list()).toEqual([]);
    expect(registry.names().some((name) => name.startsWith('mcp__'))).toBe(false);
  });

  it('refuses stdio servers unless the local opt-in allows them', async () => {
    const { manager, store } = await harness([]);

    const error = await manager.add({ name: 'local', url: JSON.stringify(['node', '--version']), transport: 'stdio' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ name: 'McpConnectionError', permanent: true });
    expect((error as Error).message).toMatch(/stdio transport, which starts a local program/);
    expect(await store.mcpServers.list()).toEqual([]);
  });

  it('starts a stdio server when the local opt-in allows it, with none of this process\'s secrets in its environment', async () => {
    process.env['FORGE_TEST_SENTINEL_SECRET'] = 'sentinel-value';
    const { manager, call } = await harness([], 'allow');
    const entry = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

    try {
      const status = await manager.add({ name: 'local', url: JSON.stringify([process.execPath, entry, 'stdio']), transport: 'stdio', enabledTools: ['echo', 'get-env'] });
      const environment = await call('mcp__local__get-env', {});

      expect(status).toMatchObject({ state: 'connected', transport: 'stdio', tools: ['mcp__local__echo', 'mcp__local__get-env'] });
      expect(await call('mcp__local__echo', { message: 'over stdio' })).toMatchObject({ ok: true, value: 'Echo: over stdio' });
      expect(environment.ok).toBe(true);
      expect(environment.output).not.toContain('sentinel-value');
      expect(environment.output).toContain('PATH');
    } finally {
      delete process.env['FORGE_TEST_SENTINEL_SECRET'];
    }
  });

  it('refuses names that would break the mcp__{server}__{tool} scheme', async () => {
    const { manager } = await harness([]);

    for (const name of ['Has_Underscore', 'a__b', '', 'x'.repeat(33)]) {
      await expect(manager.add({ name, url: 'http://127.0.0.1:1/mcp', transport: 'streamable-http' })).rejects.toMatchObject({ name: 'ConfigurationError' });
    }
  });

  it('registers tools whose full names would be too long under a short form that stays distinct', async () => {
    const longA = `${'summarize'.repeat(6)}.alpha`;
    const longB = `${'summarize'.repeat(6)}.beta`;
    const alpha = await fixture({ name: 'alpha', tools: { [longA]: echoTool('A'), [longB]: echoTool('B') } });
    const { manager, call } = await harness([alpha]);

    const status = await manager.add({ name: 'a-rather-long-server-name', url: alpha.url, transport: 'streamable-http' });

    expect(status.tools).toEqual([mcpToolName('a-rather-long-server-name', longA), mcpToolName('a-rather-long-server-name', longB)]);
    expect(new Set(status.tools).size).toBe(2);
    for (const name of status.tools) expect(name).toMatch(/^mcp__a-rather-long-server-name__[a-zA-Z0-9_-]+-[0-9a-f]{10}$/);
    expect(await call(status.tools[1]!, { message: 'b' })).toMatchObject({ ok: true, value: 'B: b' });
  });
});
