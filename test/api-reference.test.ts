import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { openApiDocument, serveApi, type ApiServer } from '../src/server/api/index.js';
import { launchChromium, PageProblems } from './support/web-ui-browser.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation the OpenAPI document lists, as "METHOD path". */
function documentedOperations(): string[] {
  const document = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item).filter((key) => METHODS.includes(key)).map((method) => `${method.toUpperCase()} ${route}`));
}

describe('the API reference at /docs/api', () => {
  const problems = new PageProblems();
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let browser: Browser;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-api-reference-'));
    runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    server = await serveApi(runtime, { port: 0, webRoot: null });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await runtime?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('renders every operation of the OpenAPI document in Chromium, from files this server serves, with no error', async () => {
    const operations = documentedOperations();
    expect(operations.length).toBeGreaterThan(50);
    const origin = server.listener.origin;
    const page = problems.watch(await browser.newPage(), origin);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });

    const response = await page.goto(`${origin}/docs/api`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBe(operations.length);

    const methods = await page.locator('.opblock-summary .opblock-summary-method').allTextContents();
    const pathCells = await page.locator('.opblock-summary .opblock-summary-path').all();
    const paths = await Promise.all(pathCells.map((cell) => cell.getAttribute('data-path')));
    const shown = methods.map((method, index) => `${method.trim()} ${paths[index]}`);
    expect(shown.sort()).toEqual([...operations].sort());
    expect(elsewhere).toEqual([]);
    expect(problems.problems).toEqual([]);
  });

  it('answers only GET and HEAD, and names where the reference is for a path it does not have', async () => {
    const origin = server.listener.origin;
    expect((await fetch(`${origin}/docs/api`, { method: 'POST' })).status).toBe(405);
    const missing = await fetch(`${origin}/docs/api/nothing.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('/docs/api');
  });
});
