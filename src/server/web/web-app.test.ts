import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_CONTENT_SECURITY_POLICY, WebApp } from './web-app.js';

describe('WebApp: the built UI as forge serve answers it', () => {
  let root: string;
  let server: Server;
  let origin: string;
  const script = 'console.log("forge");'.repeat(50);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'forge-web-app-'));
    await mkdir(path.join(root, 'assets'));
    await writeFile(path.join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>');
    await writeFile(path.join(root, 'assets', 'app-1a2b.js'), script);
    await writeFile(path.join(root, 'assets', 'app-1a2b.js.gz'), gzipSync(script));
    await writeFile(path.join(root, 'assets', 'app-1a2b.js.br'), brotliCompressSync(script));
    await writeFile(path.join(path.dirname(root), 'outside.txt'), 'not the UI\'s');
    const app = WebApp.open(root)!;
    server = createServer((request, response) => app.serve(request, response, new URL(request.url ?? '/', 'http://x').pathname));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(root, { recursive: true, force: true });
    await rm(path.join(path.dirname(root), 'outside.txt'), { force: true });
  });

  it('answers every UI route with index.html, uncached, under the strict policy', async () => {
    for (const route of ['/', '/chat', '/runs/0143af4e1a9f', '/skills/order-status@2']) {
      const response = await fetch(`${origin}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(WEB_CONTENT_SECURITY_POLICY);
      expect(await response.text()).toContain('/assets/app-1a2b.js');
    }
    expect(WEB_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(WEB_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('sends hashed assets precompressed (brotli, else gzip, else plain) with immutable caching', async () => {
    const sizes: Record<string, number> = {};
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await fetch(`${origin}/assets/app-1a2b.js`, { headers: { 'accept-encoding': encoding } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      sizes[encoding] = Number(response.headers.get('content-length'));
      expect(await response.text()).toBe(script);
    }
    expect(sizes['br']).toBeLessThan(sizes['identity']!);
    expect(sizes['gzip']).toBeLessThan(sizes['identity']!);
  });

  it('never answers a missing asset with the page, serves nothing it did not build, and takes only GET and HEAD', async () => {
    expect((await fetch(`${origin}/assets/missing-9z.js`)).status).toBe(404);
    expect((await fetch(`${origin}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`${origin}/assets/app-1a2b.js.gz`)).status).toBe(404);
    const escaped = await fetch(`${origin}/assets/%2e%2e/%2e%2e/outside.txt`);
    expect(await escaped.text()).not.toContain("not the UI's");
    expect((await fetch(`${origin}/chat`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${origin}/chat`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('leaves the API, health checks and MCP to their handlers', () => {
    for (const pathname of ['/api', '/api/v1/runs', '/health', '/ready', '/mcp', '/mcp/session']) expect(WebApp.owns(pathname), pathname).toBe(false);
    for (const pathname of ['/', '/chat', '/mcp-servers', '/apis', '/healthy']) expect(WebApp.owns(pathname), pathname).toBe(true);
  });

  it('is absent when the UI was not built', async () => {
    expect(WebApp.open(path.join(root, 'assets'))).toBeUndefined();
  });
});
