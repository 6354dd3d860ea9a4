import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const PASSWORD = 'a long enough password';
const APP_ORIGIN = 'https://app.example.com';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request sent from `from` (a 127.0.0.x address of the test's choosing): how distinct clients reach the server. */
function requestFrom(from: string, url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', localAddress: from, headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

function signIn(from: string, url: string, email: string, password: string): Promise<Answer> {
  return requestFrom(from, `${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
}

/** `forge serve`'s limits, attacked for real: body size, rate limits, sign-in guessing, slow handlers, CORS, headers. */
describe('the HTTP API\'s limits', () => {
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let release: (() => void) | undefined;
  let slowStarted: (() => void) | undefined;
  // The rate limits' clock: frozen, moved by the tests (never slept on).
  let now = 0;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-limits-'));
    runtime = await openRuntime(
      { FORGE_HOME: home, FORGE_API_RATE_LIMIT: '20', FORGE_API_MAX_BODY_BYTES: '2000', FORGE_API_TIMEOUT: '1', FORGE_CORS_ORIGINS: APP_ORIGIN },
      home,
      { mcp: { startupWaitMs: 0 } },
    );
    runtime.registry.register(
      defineTool({
        name: 'slow',
        description: 'Waits until the test releases it.',
        inputSchema: z.object({}),
        risk: 'low',
        sideEffect: 'read',
        execute: () =>
          new Promise((resolve) => {
            release = () => resolve('done');
            slowStarted?.();
          }),
      }),
    );
    await runtime.accounts.addUser({ email: 'ada@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', now: () => now });
    origin = server.listener.origin;
  });
  // A minute later every bucket is full again: each test starts with its callers unlimited.
  beforeEach(() => {
    now += 60_000;
  });
  afterAll(async () => {
    release?.();
    await server?.close();
    await runtime?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('refuses a body over the limit with 413, with and without Content-Length, and goes on serving', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(5_000), password: 'y' });
    const declared = await fetch(`${origin}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { name: string } }).error.name).toBe('RequestTooLarge');
    // Chunked, no Content-Length: cut off once it passes the limit.
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${origin}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      for (let index = 0; index < 10; index += 1) request.write('x'.repeat(1_000));
      request.end();
    });
    expect(chunked).toBe(413);
    expect((await fetch(`${origin}/health`)).status).toBe(200);
  });

  it('limits each caller: past the limit 429 with Retry-After, while another account goes on, and refills with time', async () => {
    const ada = new ForgeClient({ baseUrl: origin });
    const token = (await ada.login('ada@example.com', PASSWORD)).access_token;
    const bob = new ForgeClient({ baseUrl: origin });
    await bob.login('bob@example.com', PASSWORD);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let index = 0; index < 25; index += 1) {
      const response = await fetch(`${origin}/api/v1/runs`, { headers: { authorization: `Bearer ${token}` } });
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get('retry-after');
        expect(((await response.json()) as { error: { name: string } }).error.name).toBe('RateLimited');
      } else await response.body?.cancel();
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
    // 20 a minute: one more request every 3 s.
    expect(retryAfter).toBe('3');
    expect((await bob.listRuns()).runs).toEqual([]);
    now += 3_000;
    const statusesAfter: number[] = [];
    for (let index = 0; index < 2; index += 1) {
      const response = await fetch(`${origin}/api/v1/runs`, { headers: { authorization: `Bearer ${token}` } });
      statusesAfter.push(response.status);
      await response.body?.cancel();
    }
    expect(statusesAfter).toEqual([200, 429]);
  });

  it('counts requests with wrong credentials against their address, and only theirs', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 25; index += 1) statuses.push((await requestFrom('127.0.0.2', `${origin}/api/v1/runs`, { headers: { 'x-api-key': `fk_guess_${index}` } })).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    const another = await requestFrom('127.0.0.3', `${origin}/health`);
    expect(another.status).toBe(200);
  });

  it('slows password guessing: at most 10 sign-in attempts a minute per address and email, without locking the owner out', async () => {
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let index = 0; index < 12; index += 1) {
      const answer = await signIn('127.0.0.2', origin, 'bob@example.com', `guess number ${index}`);
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expect((JSON.parse(refused!.body) as { error: { name: string } }).error.name).toBe('RateLimited');
    expect(refused!.headers['retry-after']).toBe('6');
    // The right password is refused too while the limit holds: guessing is slowed whatever the guess.
    expect((await signIn('127.0.0.2', origin, 'bob@example.com', PASSWORD)).status).toBe(429);
    // Bob, signing in from elsewhere, is not locked out by the guesses.
    expect((await signIn('127.0.0.3', origin, 'bob@example.com', PASSWORD)).status).toBe(200);
    // 10 a minute: one more attempt 6 s later.
    now += 6_000;
    expect((await signIn('127.0.0.2', origin, 'bob@example.com', PASSWORD)).status).toBe(200);
  });

  it('answers a request that takes too long with 503, and stays up', async () => {
    const created = await runtime.apiKeys.createFor((await runtime.accounts.requireUser('ada@example.com')).id, { name: 'slow', scopes: ['tools:write'] });
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const answer = fetch(`${origin}/api/v1/tools/slow/call`, { method: 'POST', headers: { 'x-api-key': created.key, 'content-type': 'application/json' }, body: '{"input":{}}' });
    await started;
    const response = await answer;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { name: string } }).error.name).toBe('Timeout');
    release!();
    expect((await fetch(`${origin}/health`)).status).toBe(200);
  });

  it('answers CORS preflights from a listed origin only, and refuses other origins', async () => {
    const allowed = await fetch(`${origin}/api/v1/runs`, { method: 'OPTIONS', headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-csrf-token' } });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-csrf-token');
    const health = await fetch(`${origin}/health`, { headers: { origin: APP_ORIGIN } });
    expect(health.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(health.headers.get('vary')).toContain('Origin');
    const foreign = await fetch(`${origin}/api/v1/runs`, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const foreignGet = await fetch(`${origin}/health`, { headers: { origin: 'https://evil.example.com' } });
    expect(foreignGet.status).toBe(403);
  });

  it('sends security headers on every answer: public, authenticated and refused', async () => {
    const { access_token: token } = await new ForgeClient({ baseUrl: origin }).login('ada@example.com', PASSWORD);
    const answers = [
      await fetch(`${origin}/health`),
      await fetch(`${origin}/api/v1/runs`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${origin}/api/v1/runs`),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 200, 401]);
    for (const response of answers) {
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      await response.body?.cancel();
    }
  });
});
