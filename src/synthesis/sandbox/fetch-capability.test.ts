import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkBlockedError, type GuardedFetch, type GuardedRequestInit } from '../../core/index.js';
import { runInSandbox } from './run-in-sandbox.js';

// The real SSRF guard lives elsewhere; this host fetch honours the same contract (GuardedFetch) for a
// local server, and refuses one host the way the guard refuses private addresses.
const calls: { url: string; init: GuardedRequestInit | undefined }[] = [];
const testFetch: GuardedFetch = async (url, init) => {
  calls.push({ url, init });
  if (new URL(url).hostname === 'blocked.example') throw new NetworkBlockedError(url, 'a test refusal');
  if (url.endsWith('/host-failure')) throw new Error('ECONNRESET at /srv/forge/secret-config.json');
  const response = await fetch(url, {
    ...(init?.method === undefined ? {} : { method: init.method }),
    ...(init?.headers === undefined ? {} : { headers: init.headers }),
    ...(init?.body === undefined ? {} : { body: init.body }),
    ...(init?.signal === undefined ? {} : { signal: init.signal }),
  });
  const body = new Uint8Array(await response.arrayBuffer());
  return {
    url: response.url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    truncated: false,
    redirects: [],
    text: () => new TextDecoder().decode(body),
  };
};

let server: Server;
let base: string;
const concurrency = { now: 0, most: 0 };

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/hang') return;
    if (request.url?.startsWith('/slow/') === true) {
      concurrency.now += 1;
      concurrency.most = Math.max(concurrency.most, concurrency.now);
      response.on('close', () => (concurrency.now -= 1));
      // Answers only when the next request arrives (or the last one does), so overlap is the guest's doing.
      setImmediate(() => response.end('x'.repeat(10_000)));
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/doc.json') {
        response.writeHead(200, { 'Content-Type': 'application/json', 'X-Served-By': 'fixture' });
        response.end(JSON.stringify({ title: 'Forge', tags: ['a', 'b'] }));
        return;
      }
      if (request.url === '/echo') {
        response.writeHead(201, { 'Content-Type': 'text/plain' });
        response.end(`${request.method} ${request.headers['x-token'] ?? '-'} ${body}`);
        return;
      }
      response.writeHead(404).end('missing');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const limits = { cpuMs: 1_000, wallMs: 10_000 };

function runWithFetch(body: string, input: Record<string, string>) {
  return runInSandbox({
    source: `export default async function run(input, forge) { ${body} }`,
    input: { base, ...input },
    capabilities: ['fetch'],
    hostCapabilities: { fetch: testFetch },
    limits,
  });
}

describe('forge.fetch', () => {
  it('returns status, headers and a body readable as text or JSON', async () => {
    const result = await runWithFetch(
      `const response = await forge.fetch(input.base + '/doc.json');
       const data = await response.json();
       return { status: response.status, ok: response.ok, servedBy: response.headers.get('X-Served-By'), title: data.title, text: await response.text() };`,
      {},
    );
    expect(result).toMatchObject({ ok: true, value: { status: 200, ok: true, servedBy: 'fixture', title: 'Forge', text: JSON.stringify({ title: 'Forge', tags: ['a', 'b'] }) }, capabilitiesUsed: ['fetch'] });
  });

  it('sends the method, headers and body the guest gives, and resolves on any status', async () => {
    const result = await runWithFetch(
      `const posted = await forge.fetch(input.base + '/echo', { method: 'post', headers: { 'x-token': 'abc' }, body: 'hello' });
       const missing = await forge.fetch(input.base + '/nowhere');
       return [posted.status, await posted.text(), missing.status, missing.ok];`,
      {},
    );
    expect(result).toMatchObject({ ok: true, value: [201, 'POST abc hello', 404, false] });
  });

  it('runs concurrent requests from one guest', async () => {
    const result = await runWithFetch(
      `const responses = await Promise.all([1, 2, 3].map(() => forge.fetch(input.base + '/doc.json')));
       return responses.map((response) => response.status);`,
      {},
    );
    expect(result).toMatchObject({ ok: true, value: [200, 200, 200] });
  });

  it('lets the guest see a refusal of the network guard by name', async () => {
    const result = await runWithFetch(
      `try { await forge.fetch('http://blocked.example/'); return 'fetched'; } catch (error) { return error.name + ': ' + error.message; }`,
      {},
    );
    expect(result).toMatchObject({ ok: true, value: expect.stringMatching(/^NetworkBlockedError: Request to http:\/\/blocked\.example\/ refused/) });
  });

  it('refuses a guest that tries to control redirects, before any request is made', async () => {
    const before = calls.length;
    const result = await runWithFetch(`return await forge.fetch(input.base + '/doc.json', { redirect: 'manual' });`, {});
    expect(result).toMatchObject({ ok: false, error: { name: 'CapabilityInputError', message: expect.stringContaining('redirect') } });
    expect(calls.length).toBe(before);
  });

  it('hides the details of unexpected host errors from the guest', async () => {
    const result = await runWithFetch(`try { await forge.fetch(input.base + '/host-failure'); } catch (error) { return error.message; }`, {});
    expect(result).toMatchObject({ ok: true, value: 'forge.fetch failed unexpectedly.' });
  });

  it('keeps at most limits.callsInFlight requests under way, however many the guest starts at once', async () => {
    concurrency.most = 0;
    const result = await runInSandbox({
      source: `export default async function run(input, forge) {
        const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => forge.fetch(input.base + '/slow/' + index)));
        return responses.map((response) => response.status);
      }`,
      input: { base },
      capabilities: ['fetch'],
      hostCapabilities: { fetch: testFetch },
      limits: { ...limits, callsInFlight: 2 },
    });
    expect(result).toMatchObject({ ok: true, value: Array.from({ length: 12 }, () => 200) });
    expect(concurrency.most).toBeLessThanOrEqual(2);
    expect(concurrency.most).toBeGreaterThan(0);
  });

  it('refuses calls once the run has moved its capability byte budget, without making the request', async () => {
    const before = calls.length;
    const result = await runInSandbox({
      source: `export default async function run(input, forge) {
        const outcomes = [];
        for (let index = 0; index < 8; index++) {
          try { outcomes.push((await (await forge.fetch(input.base + '/slow/' + index)).text()).length); }
          catch (error) { outcomes.push(error.name); }
        }
        return outcomes;
      }`,
      input: { base },
      capabilities: ['fetch'],
      hostCapabilities: { fetch: testFetch },
      // Each answer is a little over 10,000 bytes of JSON: two fit, the third passes the budget.
      limits: { ...limits, capabilityBytes: 25_000 },
    });
    expect(result).toMatchObject({ ok: true, value: [10_000, 10_000, ...Array.from({ length: 6 }, () => 'CapabilityBudgetError')] });
    // The third was fetched (its size was unknown until it came); none after it was even requested.
    expect(calls.length - before).toBe(3);
  });

  it('ends at the wall deadline while a request hangs, and aborts the request', async () => {
    const result = await runInSandbox({
      source: "export default async function run(input, forge) { await forge.fetch(input.base + '/hang'); return 'answered'; }",
      input: { base },
      capabilities: ['fetch'],
      hostCapabilities: { fetch: testFetch },
      limits: { cpuMs: 1_000, wallMs: 2_500 },
    });
    expect(result).toMatchObject({ ok: false, timedOut: true, capabilitiesUsed: ['fetch'], error: { name: 'SandboxTimeoutError' } });
    expect(result.ok ? '' : result.error.message).toContain('while waiting on forge.fetch');
    expect(calls.at(-1)?.init?.signal?.aborted).toBe(true);
  });
});
