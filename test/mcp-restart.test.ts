import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { startEverythingServer, type EverythingServer } from './fixtures/mcp/start-everything-server.js';

// Connections are stored, not held in memory: a new runtime on the same FORGE_HOME (a restarted
// Forge) reconnects by itself, and a server that is down at start shows `reconnecting` until it is back.
describe('MCP connections across a restart', () => {
  const opened: ForgeRuntime[] = [];
  let server: EverythingServer | undefined;
  let home: string | undefined;

  afterEach(async () => {
    for (const runtime of opened.splice(0)) await runtime.close();
    await server?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  async function open(port: number): Promise<ForgeRuntime> {
    const runtime = await openRuntime({ FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${port}` }, home, {
      mcp: { startupWaitMs: 5_000, backoff: { initialMs: 100, maxMs: 400 }, timeoutMs: 5_000 },
    });
    opened.push(runtime);
    return runtime;
  }

  async function call(runtime: ForgeRuntime, message: string): Promise<unknown> {
    return runtime.registry.get('mcp__everything__echo')!.execute({ message }, { runId: 'r', callId: 'c', signal: AbortSignal.timeout(10_000), fetch: runtime.fetch, utilityModel: undefined });
  }

  it('reconnects stored servers on start, and recovers one that was down at start once it is up', async () => {
    home = await mkdtemp(join(tmpdir(), 'forge-mcp-restart-'));
    server = await startEverythingServer();
    const port = server.port;
    const first = await open(port);
    await first.mcp.add({ name: 'everything', url: server.url, transport: 'streamable-http', headers: { 'X-Api-Key': 'k-123' } });
    await first.close();
    opened.splice(0);

    const second = await open(port);

    expect(second.mcp.status('everything')).toMatchObject({ state: 'connected', headers: ['X-Api-Key'] });
    expect(second.registry.names()).toContain('mcp__everything__echo');
    expect(await call(second, 'back again')).toBe('Echo: back again');
    await second.close();
    opened.splice(0);

    await server.stop();
    server = undefined;
    const third = await open(port);

    const down = third.mcp.status('everything');
    expect(down.state).toBe('reconnecting');
    expect(down.lastError?.name).toBe('McpConnectionError');
    expect(down.nextAttemptAt).not.toBeNull();
    expect(third.registry.names().some((name) => name.startsWith('mcp__everything__'))).toBe(false);

    server = await startEverythingServer(port);
    const recovered = await third.mcp.waitFor('everything', 'connected', { timeoutMs: 15_000 });

    expect(recovered.lastError).toBeNull();
    expect(recovered.failedAttempts).toBe(0);
    expect(await call(third, 'recovered')).toBe('Echo: recovered');
  });
});
