import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';

const MARKER = 'The buried sentence survives the conversion.';

const depth = 4_200;

/** About 215 KB of <div>s nested 4,200 deep around one sentence: work for Readability that grows with depth cubed. */
const nestedPage = `<!doctype html><html><head><title>Nested</title></head><body>${Array.from({ length: depth }, (_, level) => `<div class="level-wrapper" data-level="${String(level).padStart(4, '0')}">`).join('')}<p>${MARKER}</p>${'</div>'.repeat(depth)}</body></html>`;

/** `forge tools call read_url` through the built binary against a loopback page built to stall the converter. */
describe('read_url on a page built to stall HTML conversion (from the command line)', () => {
  let server: Server;
  let home: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/nested') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(nestedPage);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    home = await mkdtemp(path.join(tmpdir(), 'forge-read-url-dos-'));
    env = { FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${port}` };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(home, { recursive: true, force: true });
  });

  it('finishes with the page text instead of converting for minutes', { timeout: 90_000 }, async () => {
    expect(nestedPage.length).toBeGreaterThan(200_000);
    const startedAt = performance.now();
    const called = await runCli(['tools', 'call', 'read_url', '--json', '--input', JSON.stringify({ url: `${base}/nested` })], env, { timeoutMs: 60_000 });
    const seconds = (performance.now() - startedAt) / 1000;
    console.info(`read_url on ${nestedPage.length} bytes nested ${depth} deep: ${seconds.toFixed(1)} s, exit ${called.code ?? called.signal}`);
    // Generous: it only tells "finishes" from "hangs" (killed at 60 s before the conversion was bounded).
    expect(called.signal, 'the conversion did not finish within 60 s').toBeNull();
    expect(called.code, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { ok: boolean; output: string };
    expect(result.ok).toBe(true);
    expect(result.output).toContain(MARKER);
    expect(result.output).toMatch(/nests elements more than \d+ deep/);
    expect(result.output.length).toBeLessThan(20_000);
  });
});
