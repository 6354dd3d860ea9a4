import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGE_BIN, runCli, scratchUserHome } from './support/built-cli.js';

/** A `forge mcp serve` process started from the built binary, as a user starts it. */
interface ServeProcess {
  readonly url: URL;
  /** Everything the process wrote so far. */
  output(): string;
  stop(): Promise<void>;
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } };
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One raw HTTP request to the served endpoint, connecting to `connectTo` (default: the address it
 * listens on) with exactly the headers given, Host included: a browser tricked by DNS rebinding sends
 * the attacker's host name to our address, which is what this reproduces.
 */
function send(serve: ServeProcess, method: string, headers: Record<string, string>, body?: unknown): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const hostname = serve.url.hostname.replace(/^\[|\]$/g, '');
    const request = httpRequest({ hostname, port: serve.url.port, path: '/mcp', method, headers, timeout: 10_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${method} within 10 s`)));
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function startServe(home: string, args: readonly string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [FORGE_BIN, 'mcp', 'serve', '--port', '0', '--json', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: scratchUserHome(), FORGE_HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const exited = new Promise<void>((done) => child.once('close', () => done()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`forge mcp serve did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url": "([^"]+)"/.exec(output);
      if (match === null || started) return;
      started = true;
      clearTimeout(timer);
      resolve({
        url: new URL(match[1]!),
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`forge mcp serve exited (${String(code)}) before listening:\n${output}`));
    });
  });
}

describe('forge mcp serve at its HTTP boundary', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-mcp-boundary-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it.each(['127.0.0.2', '::ffff:127.0.0.1'])('bound to %s, refuses a request for another Host (DNS rebinding) before any session exists', async (host) => {
    const serve = await startServe(home, ['--host', host]);
    try {
      const rebound = await send(serve, 'POST', { ...mcpHeaders, host: 'evil.example' }, initialize);
      const ownHost = await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host }, initialize);

      expect(rebound.status).toBe(403);
      expect(rebound.headers['mcp-session-id']).toBeUndefined();
      expect(rebound.body).toContain('Host');
      expect(ownHost.status).toBe(200);
      expect(ownHost.headers['mcp-session-id']).toMatch(/./);
    } finally {
      await serve.stop();
    }
  });

  it('keeps at most the default 100 sessions from one client', async () => {
    const serve = await startServe(home, []);
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 101; index += 1) statuses.push((await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host }, initialize)).status);

      expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
      expect(statuses[100]).toBe(503);
    } finally {
      await serve.stop();
    }
  });
  it('checks Host on every request of a session, not only when it starts', async () => {
    const serve = await startServe(home, []);
    try {
      const started = await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host }, initialize);
      const sessionId = String(started.headers['mcp-session-id']);
      const session = { ...mcpHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };

      const rebound = await send(serve, 'POST', { ...session, host: 'evil.example' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const own = await send(serve, 'POST', { ...session, host: serve.url.host }, { jsonrpc: '2.0', id: 3, method: 'tools/list' });

      expect(rebound.status).toBe(403);
      expect(own.status).toBe(200);
      expect(own.body).toContain('"tools"');
    } finally {
      await serve.stop();
    }
  });

  it("refuses a browser page of another site (its Origin), and accepts the server's own origin", async () => {
    const serve = await startServe(home, []);
    try {
      const crossSite = await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host, origin: 'https://evil.example' }, initialize);
      const opaque = await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host, origin: 'null' }, initialize);
      const sameOrigin = await send(serve, 'POST', { ...mcpHeaders, host: serve.url.host, origin: serve.url.origin }, initialize);

      expect(crossSite.status).toBe(403);
      expect(crossSite.body).toContain('origin');
      expect(opaque.status).toBe(403);
      expect(sameOrigin.status).toBe(200);
    } finally {
      await serve.stop();
    }
  });

  it('answers an --allowed-host name (as a proxy in front sends it) and nothing that merely contains it', async () => {
    const serve = await startServe(home, ['--allowed-host', 'forge.example.org']);
    try {
      const proxied = await send(serve, 'POST', { ...mcpHeaders, host: 'forge.example.org' }, initialize);
      const lookalike = await send(serve, 'POST', { ...mcpHeaders, host: 'forge.example.org.evil.example' }, initialize);
      const userinfo = await send(serve, 'POST', { ...mcpHeaders, host: `evil.example@${serve.url.host}` }, initialize);

      expect(proxied.status).toBe(200);
      expect(lookalike.status).toBe(403);
      expect(userinfo.status).toBe(403);
    } finally {
      await serve.stop();
    }
  });

  it.each(['0.0.0.0', '::'])('refuses to listen on %s without an access token, before binding anything', async (host) => {
    const result = await runCli(['mcp', 'serve', '--host', host, '--port', '0'], { FORGE_HOME: home }, { timeoutMs: 15_000 });

    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`refusing to listen on ${host} without an access token`);
    expect(result.stderr).toContain('FORGE_MCP_TOKEN');
    expect(result.stdout).not.toContain('listening');
  });

  it('with FORGE_MCP_TOKEN, answers 401 to a missing or wrong bearer token and never prints the token', async () => {
    const token = 'tok-3f9a1c7e5b2d4806';
    const serve = await startServe(home, [], { FORGE_MCP_TOKEN: token });
    const own = { ...mcpHeaders, host: serve.url.host };
    try {
      const missing = await send(serve, 'POST', own, initialize);
      const wrong = await send(serve, 'POST', { ...own, authorization: 'Bearer tok-0000000000000000' }, initialize);
      const prefix = await send(serve, 'POST', { ...own, authorization: `Bearer ${token.slice(0, -1)}` }, initialize);
      const longer = await send(serve, 'POST', { ...own, authorization: `Bearer ${token}0` }, initialize);
      const basic = await send(serve, 'POST', { ...own, authorization: `Basic ${token}` }, initialize);
      const right = await send(serve, 'POST', { ...own, authorization: `Bearer ${token}` }, initialize);

      for (const refused of [missing, wrong, prefix, longer, basic]) {
        expect(refused.status).toBe(401);
        expect(refused.headers['mcp-session-id']).toBeUndefined();
        expect(refused.body).not.toContain(token);
      }
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(right.status).toBe(200);
      expect(serve.output()).toContain('"token_required": true');
    } finally {
      await serve.stop();
    }
    expect(serve.output()).not.toContain(token);
  });

  it('refuses a token too short to resist guessing', async () => {
    const result = await runCli(['mcp', 'serve', '--port', '0', '--token', 'short'], { FORGE_HOME: home }, { timeoutMs: 15_000 });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('at least 16 characters');
    expect(result.stderr).not.toContain('short');
  });

  it('past --max-sessions, answers a new session 503 with Retry-After; open sessions keep working, and an ended one frees its place', async () => {
    const serve = await startServe(home, ['--max-sessions', '2']);
    const own = { ...mcpHeaders, host: serve.url.host };
    try {
      const first = await send(serve, 'POST', own, initialize);
      const second = await send(serve, 'POST', own, initialize);
      const refused = await send(serve, 'POST', own, initialize);
      const firstSession = { ...own, 'mcp-session-id': String(first.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
      const stillServed = await send(serve, 'POST', firstSession, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const ended = await send(serve, 'DELETE', firstSession);
      const afterEnd = await send(serve, 'POST', own, initialize);

      expect([first.status, second.status]).toEqual([200, 200]);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toContain('at most 2');
      expect(refused.headers['mcp-session-id']).toBeUndefined();
      expect(stillServed.status).toBe(200);
      expect(ended.status).toBe(200);
      expect(afterEnd.status).toBe(200);
    } finally {
      await serve.stop();
    }
  });
});
