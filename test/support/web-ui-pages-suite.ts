import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LLMock } from '@copilotkit/aimock';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../../src/client/index.js';
import { defineTool } from '../../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../../src/compose/index.js';
import { serveApi, type ApiServer } from '../../src/server/api/index.js';
import { launchChromium, PageProblems } from './web-ui-browser.js';
import { WEB_ROOT } from './web-ui-build.js';

const PASSWORD = 'a long enough password';
const SCREENSHOTS = fileURLToPath(new URL('../../test-output/web-ui-screenshots/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const MAX_CHAT_JS_GZIP_BYTES = 300 * 1024;

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

export interface PagesSuiteOptions {
  /** The viewport width every page is drawn at. */
  readonly width: 1280 | 390;
  /** Which combinations get an axe scan (contrast differs by theme, layout by width and direction). */
  scanned(options: { dark: boolean; language: 'en' | 'ar' }): boolean;
  /** Screenshots copied into docs/ for the README: screenshot name → docs file name. */
  readonly docs?: Readonly<Record<string, string>>;
}

/**
 * Every page of the web UI at one width, in English and Arabic, light and dark: a screenshot of each,
 * an axe-core scan (no serious or critical violation), no horizontal scroll, no console error and no
 * failed request. The server holds real records (a chat with a tool call, a run waiting for an
 * approval, a saved and replayed skill, a published product). Each width is its own test file, so
 * the two run side by side.
 */
export function describeEveryPage(options: PagesSuiteOptions): void {
  describe(`the web UI, every page at ${options.width} px`, () => {
    const mock = new LLMock({ port: 0, host: '127.0.0.1' });
    const problems = new PageProblems();
    let home: string;
    let runtime: ForgeRuntime;
    let server: ApiServer;
    let origin: string;
    let browser: Browser;
    let axeSource: string;
    const pages: { name: string; path: string; signedOut?: true }[] = [];

    async function settled(runId: string): Promise<void> {
      for await (const _event of runtime.runs.eventsAfter(runId, Number.MAX_SAFE_INTEGER - 1)) {
        // Ends when the run's feed closes.
      }
    }

    beforeAll(async () => {
      await mock.start();
      mock.on({ userMessage: 'Where is order W2890441?', hasToolResult: false }, { toolCalls: [{ id: 'lookup_1', name: 'warehouse_order_lookup', arguments: { order_id: 'W2890441' } }] });
      mock.on({ toolCallId: 'lookup_1' }, { content: 'Order W2890441 has shipped.' });
      mock.on({ userMessage: 'Refund order W2890441', hasToolResult: false }, { toolCalls: [{ id: 'refund_1', name: 'refund_order', arguments: { order_id: 'W2890441' } }] });
      home = await mkdtemp(path.join(tmpdir(), 'forge-web-pages-'));
      runtime = await openRuntime(
        { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_MODEL: 'openai:gpt-4.1-mini', FORGE_REQUIRE_APPROVAL: 'refund_order', FORGE_API_RATE_LIMIT: '0' },
        home,
        { mcp: { startupWaitMs: 0 } },
      );
      runtime.registry.register(
        defineTool({ name: 'warehouse_order_lookup', description: 'Looks an order up.', inputSchema: z.object({ order_id: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ order_id }) => ({ order_id, status: 'shipped' }) }),
      );
      runtime.registry.register(defineTool({ name: 'refund_order', description: 'Refunds an order.', inputSchema: z.object({ order_id: z.string() }), risk: 'medium', sideEffect: 'write', execute: async () => 'refunded' }));
      await runtime.accounts.addUser({ email: 'admin@example.com', password: PASSWORD, role: 'admin' });
      server = await serveApi(runtime, { port: 0, auth: 'accounts', webRoot: WEB_ROOT });
      origin = server.listener.origin;

      const client = new ForgeClient({ baseUrl: origin });
      await client.login('admin@example.com', PASSWORD);
      const conversation = await client.createConversation('Where is order W2890441?');
      const asked = await client.sendMessage(conversation.conversation_id, 'Where is order W2890441?');
      await client.readEvents(asked.run_id);
      await settled(asked.run_id);
      const waiting = await client.sendMessage(conversation.conversation_id, 'Refund order W2890441');
      await client.readEvents(waiting.run_id);
      await settled(waiting.run_id);
      await client.saveSkill({ run_id: asked.run_id, name: 'order-status' });
      await client.runSkill('order-status', { order_id: 'W1000001' });
      await client.publishProduct({ skill: 'order-status', name: 'where-is-my-order', description: 'Tells you where your order is.', price_minor: 150, currency: 'EUR', output_fields: ['order_id', 'status'] });
      await client.setProviderKey('openai', 'sk-test-web-ui-1234');
      await client.createApiKey({ name: 'ci', scopes: ['runs:read'] });
      await client.createAgent({ version: 1, name: 'Order desk', slug: 'order-desk', system_prompt: 'You answer questions about orders.' });

      pages.push(
        { name: 'login', path: '/login', signedOut: true },
        { name: 'session-expired', path: '/session-expired' },
        { name: 'chat', path: `/chat/${conversation.conversation_id}` },
        { name: 'chat-new', path: '/chat' },
        { name: 'runs', path: '/runs' },
        { name: 'run', path: `/runs/${asked.run_id}` },
        { name: 'save-skill', path: `/runs/${asked.run_id}?save=1` },
        { name: 'approvals', path: '/approvals' },
        { name: 'skills', path: '/skills' },
        { name: 'skill', path: '/skills/order-status' },
        { name: 'toolbox', path: '/toolbox' },
        { name: 'mcp', path: '/mcp-servers' },
        { name: 'marketplace', path: '/marketplace' },
        { name: 'product', path: '/marketplace/where-is-my-order' },
        { name: 'agents', path: '/agents' },
        { name: 'policy', path: '/policy' },
        { name: 'usage', path: '/usage' },
        { name: 'settings', path: '/settings' },
      );
      axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      browser = await launchChromium();
      await mkdir(SCREENSHOTS, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await runtime?.close();
      await mock.stop();
      await rm(home, { recursive: true, force: true });
    });

    async function signedInContext(options: { width: number; dark: boolean }): Promise<BrowserContext> {
      const context = await browser.newContext({ viewport: { width: options.width, height: options.width > 800 ? 900 : 844 }, colorScheme: options.dark ? 'dark' : 'light' });
      const answer = await context.request.post(`${origin}/api/v1/auth/login`, { data: { email: 'admin@example.com', password: PASSWORD } });
      expect(answer.status()).toBe(200);
      return context;
    }

    /** Waits until the page has drawn what it loads. */
    async function drawn(page: Page): Promise<void> {
      await page.locator('main').first().waitFor();
      await expect.poll(() => page.getByText(/^(Loading…|جارٍ التحميل…)$/).count(), { interval: 50 }).toBe(0);
    }

    /** Loads the app at `target` in `language`. */
    async function load(page: Page, target: string, language: 'en' | 'ar'): Promise<void> {
      await page.goto(`${origin}${target}${target.includes('?') ? '&' : '?'}lang=${language}`);
      await drawn(page);
    }

    /** Goes to `target` inside the loaded app, as its links do. */
    async function visit(page: Page, target: string): Promise<void> {
      await page.evaluate(`history.pushState(null, '', ${JSON.stringify(target)}); dispatchEvent(new Event('forge:navigate'))`);
      await drawn(page);
    }

    async function axeViolations(page: Page): Promise<AxeViolation[]> {
      if ((await page.evaluate<boolean>('typeof axe !== "undefined"')) === false) await page.evaluate(axeSource);
      const results = await page.evaluate<{ violations: AxeViolation[] }>('axe.run(document, { resultTypes: ["violations"] })');
      return results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    }

    it('every page, in both languages and themes: screenshots, axe, no horizontal scroll', async () => {
      const found: string[] = [];
      const { width } = options;
      for (const dark of [false, true]) {
        const signedIn = await signedInContext({ width, dark });
        const signedOut = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 }, colorScheme: dark ? 'dark' : 'light' });
        const inPage = problems.watch(await signedIn.newPage(), origin);
        const outPage = problems.watch(await signedOut.newPage(), origin);
        try {
          for (const language of ['en', 'ar'] as const) {
            for (const each of pages) {
              const page = each.signedOut === true ? outPage : inPage;
              if (each.signedOut === true || each === pages[1]) await load(page, each.path, language);
              else await visit(page, each.path);
              expect(await page.locator('html').getAttribute('dir'), each.name).toBe(language === 'ar' ? 'rtl' : 'ltr');
              expect(await page.locator('html').getAttribute('class') ?? '', each.name).toContain(dark ? 'dark' : '');
              const file = path.join(SCREENSHOTS, `${each.name}-${language}-${dark ? 'dark' : 'light'}-${width}.png`);
              await page.screenshot({ path: file, fullPage: true });
              expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${each.name} ${language} at ${width} px`).toBeLessThanOrEqual(width);
              if (options.scanned({ dark, language })) {
                for (const violation of await axeViolations(page)) found.push(`${each.name} ${language} ${dark ? 'dark' : 'light'} ${width}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
              }
            }
          }
        } finally {
          await signedIn.close();
          await signedOut.close();
        }
      }
      expect(found).toEqual([]);
      for (const [shot, name] of Object.entries(options.docs ?? {})) {
        await mkdir(DOCS, { recursive: true });
        await copyFile(path.join(SCREENSHOTS, `${shot}.png`), path.join(DOCS, name));
      }
    }, 120_000);

    it.runIf(options.width === 1280)('loads the chat page with under 300 KB of gzipped JavaScript, served precompressed with immutable caching', async () => {
      const context = await signedInContext({ width: 1280, dark: false });
      try {
        const page = problems.watch(await context.newPage(), origin);
        const scripts: { url: string; encoding: string | undefined; cache: string | undefined; gzipBytes: number }[] = [];
        page.on('response', (response) => {
          if (response.request().resourceType() !== 'script' || !response.url().startsWith(origin)) return;
          scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'], cache: response.headers()['cache-control'], gzipBytes: -1 });
          const entry = scripts.at(-1)!;
          void response.body().then((body) => (entry.gzipBytes = gzipSync(body, { level: 9 }).length));
        });
        await load(page, '/chat', 'en');
        await expect.poll(() => scripts.every((script) => script.gzipBytes >= 0)).toBe(true);
        const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
        process.stdout.write(`web UI: the chat page's first load is ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped\n`);
        expect(scripts.length).toBeGreaterThan(0);
        expect(total).toBeLessThan(MAX_CHAT_JS_GZIP_BYTES);
        for (const script of scripts) {
          expect(script.encoding, script.url).toBe('br');
          expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
        }
      } finally {
        await context.close();
      }
    });

    it('had no console errors and no failed requests to its own origin', () => {
      expect(problems.problems).toEqual([]);
    });
  });
}
