import { request as httpRequest, createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { FORGE_VERSION } from '../src/version.js';

const PASSWORD = 'a-long-enough-admin-password';

/** A GET sent with exactly the headers given (a liveness probe sends no credentials, and its own Host). */
function probe(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Issue 26, finding 7: the defaults a fresh installation starts with. */
describe('security defaults', () => {
  let home: string;
  let runtime: ForgeRuntime;
  let hook: Server;
  let port = 0;
  const landed: string[] = [];

  beforeAll(async () => {
    hook = createServer((request, response) => {
      landed.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"stored":true}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    port = (hook.address() as AddressInfo).port;
    home = await mkdtemp(path.join(tmpdir(), 'forge-defaults-'));
    runtime = await openRuntime({ FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${port}` }, home, { mcp: { startupWaitMs: 0 } });
  });
  afterAll(async () => {
    await runtime?.close();
    hook?.closeAllConnections();
    await new Promise((resolve) => hook?.close(resolve));
    await rm(home, { recursive: true, force: true });
  });

  const call = (method: string, label: string) => callTool(runtime, { name: 'http_request', input: { method, url: `http://127.0.0.1:${port}/${label}`, ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : { body: '{}' }) } });

  it('a state-changing http_request needs an approval by default: with nobody to approve, nothing lands', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const result = await call(method, `write-${method}`);
      expect(result.outcome, method).toMatchObject({ ok: false, error: { name: 'ApprovalDeniedError' } });
      expect(landed, method).not.toContain(`${method} /write-${method}`);
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const result = await call(method, `read-${method}`);
      expect(result.outcome.ok, method).toBe(true);
      expect(landed).toContain(`${method} /read-${method}`);
    }
    const tested = await runtime.policies.test({ tool: 'http_request', input: { method: 'POST', url: 'https://example.com/' } });
    expect(tested.verdict).toMatchObject({ decision: 'require_approval', rule: expect.stringContaining('built-in rule') });
    expect(tested.verdict.reason).toMatch(/GET, HEAD or OPTIONS/);
  });

  it('the built-in rule is a default: an installation rule overrides it, and a risk default alone does not', async () => {
    await runtime.policies.setDefault('installation', 'medium', 'allow', { author: 'test' });
    expect((await call('POST', 'still-asks')).outcome).toMatchObject({ ok: false, error: { name: 'ApprovalDeniedError' } });
    expect(landed).not.toContain('POST /still-asks');

    await runtime.policies.setRule('installation', { tool: 'http_request', decision: 'allow', when: [{ argument: 'url', matches: `^http://127\\.0\\.0\\.1:${port}/` }] }, { author: 'test', message: 'our own hook' });
    const allowed = await call('POST', 'allowed');
    expect(allowed.outcome.ok).toBe(true);
    expect(landed.filter((request) => request === 'POST /allowed')).toHaveLength(1);
    await runtime.policies.removeRule('installation', { tool: 'http_request', when: [{ argument: 'url', matches: `^http://127\\.0\\.0\\.1:${port}/` }] }, { author: 'test' });
    await runtime.policies.setDefault('installation', 'medium', null, { author: 'test' });
  });

  describe('forge serve /health', () => {
    let server: ApiServer;
    beforeAll(async () => {
      server = await serveApi(runtime, { port: 0, auth: 'password', token: PASSWORD, webRoot: null });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers a probe without credentials (any Host), saying only ok and the version', async () => {
      const plain = await probe(`${server.listener.origin}/health`);
      expect(plain.status).toBe(200);
      expect(JSON.parse(plain.body)).toEqual({ status: 'ok', version: FORGE_VERSION });
      // A load balancer or an orchestrator probes by the address it knows the server at.
      const foreignHost = await probe(`${server.listener.origin}/health`, { host: '10.1.2.3:7700' });
      expect(foreignHost.status).toBe(200);
      expect(JSON.parse(foreignHost.body)).toEqual({ status: 'ok', version: FORGE_VERSION });
    });

    it('keeps every other path behind the token, readiness included', async () => {
      expect((await probe(`${server.listener.origin}/ready`)).status).toBe(401);
      expect((await probe(`${server.listener.origin}/api/v1/runs`)).status).toBe(401);
      expect((await probe(`${server.listener.origin}/health/../api/v1/runs`)).status).toBe(401);
      expect((await probe(`${server.listener.origin}/api/v1/runs`, { host: '10.1.2.3:7700', authorization: `Bearer ${PASSWORD}` })).status).toBe(403);
      expect((await probe(`${server.listener.origin}/api/v1/runs`, { authorization: `Bearer ${PASSWORD}` })).status).toBe(200);
    });
  });
});
