import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LLMock } from '@copilotkit/aimock';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { startCountingServer, type CountingServer } from './support/side-effect-counter.js';
import { launchChromium, PageProblems, signedInPage } from './support/web-ui-browser.js';
import { WEB_ROOT } from './support/web-ui-build.js';

const PASSWORD = 'a long enough password';
const RECORDED_ORDER = 'W2890441';
const INTERNAL_URL = 'https://warehouse.internal.example/api/orders';
const REPLY = `Order ${RECORDED_ORDER} has shipped.`;

/**
 * The web UI end to end in Chromium against a real `forge serve` (accounts, aimock as the model): a
 * seller chats with tool cards, answers two approvals (the denied call never lands at the fixture
 * server), saves a run as a skill, replays it with chips and a cost banner, publishes it; a customer
 * runs the product and sees nothing of its internals; Arabic turns the page right to left; dark mode;
 * and a server restart mid-stream loses and repeats nothing.
 */
describe('the web UI, end to end', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  const problems = new PageProblems();
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let counting: CountingServer;
  let browser: Browser;
  let sellerContext: BrowserContext;
  let seller: Page;
  const lookups: string[] = [];

  async function turnOf(page: Page, text: string) {
    const turn = page.getByTestId('turn').filter({ hasText: text }).last();
    await turn.waitFor();
    return turn;
  }

  async function ended(page: Page, text: string) {
    const turn = await turnOf(page, text);
    await expect.poll(() => turn.getAttribute('data-phase'), { timeout: 20_000 }).toBe('ended');
    return turn;
  }

  async function send(page: Page, text: string) {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    return turnOf(page, text);
  }

  beforeAll(async () => {
    await mock.start();
    counting = await startCountingServer();
    mock.on({ userMessage: `Where is order ${RECORDED_ORDER}?`, hasToolResult: false }, { toolCalls: [{ id: 'lookup_1', name: 'warehouse_order_lookup', arguments: { order_id: RECORDED_ORDER } }] });
    mock.on({ toolCallId: 'lookup_1' }, { content: REPLY }, { chunkSize: 3, latency: 25 });
    mock.on({ userMessage: 'Pay invoice 7 and close account 42', hasToolResult: false }, { toolCalls: [{ id: 'invoice_1', name: 'send_invoice', arguments: { invoice: '7' } }, { id: 'close_1', name: 'close_account', arguments: { account: '42' } }] });
    mock.on({ userMessage: 'Pay invoice 7 and close account 42', hasToolResult: true }, { content: 'Invoice 7 is paid; closing account 42 was denied.' });
    mock.on({ userMessage: 'Prepare the slow report', hasToolResult: false }, { toolCalls: [{ id: 'report_1', name: 'slow_report', arguments: { pages: 3 } }] });
    mock.on({ userMessage: 'Prepare the slow report', hasToolResult: true }, { content: 'The report is ready.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-web-ui-'));
    runtime = await openRuntime(
      { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_MODEL: 'openai:gpt-4.1-mini', FORGE_REQUIRE_APPROVAL: 'send_invoice,close_account', FORGE_API_RATE_LIMIT: '0' },
      home,
      { mcp: { startupWaitMs: 0 } },
    );
    runtime.registry.register(
      defineTool({
        name: 'warehouse_order_lookup',
        description: 'Looks an order up in the warehouse system.',
        inputSchema: z.object({ order_id: z.string() }),
        risk: 'low',
        sideEffect: 'read',
        execute: async ({ order_id }) => {
          lookups.push(order_id);
          return { order_id, status: 'shipped', source: `${INTERNAL_URL}/${order_id}` };
        },
      }),
    );
    for (const [name, label] of [
      ['send_invoice', 'invoice'],
      ['close_account', 'close'],
    ] as const) {
      runtime.registry.register(
        defineTool({
          name,
          description: `Calls the billing system (${label}).`,
          inputSchema: z.object({ invoice: z.string().optional(), account: z.string().optional() }),
          risk: 'medium',
          sideEffect: 'write',
          execute: async () => (await fetch(counting.url(label), { method: 'POST' })).json(),
        }),
      );
    }
    runtime.registry.register(
      defineTool({
        name: 'slow_report',
        description: 'Builds a report slowly.',
        inputSchema: z.object({ pages: z.number() }),
        risk: 'low',
        sideEffect: 'read',
        execute: async ({ pages }) => {
          await sleep(2_500);
          return { pages, report: 'ready' };
        },
      }),
    );
    await runtime.accounts.addUser({ email: 'seller@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'customer@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', webRoot: WEB_ROOT });
    origin = server.listener.origin;
    browser = await launchChromium();
    sellerContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    seller = await signedInPage(sellerContext, origin, problems, 'seller@example.com', PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await runtime?.close();
    await counting?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('chats with live tool cards and streamed text, and shows what the reply cost', async () => {
    const turn = await send(seller, `Where is order ${RECORDED_ORDER}?`);
    // The reply streams: a fragment shows before the whole text does.
    await seller.getByTestId('live-text').first().waitFor({ timeout: 15_000 });
    await ended(seller, RECORDED_ORDER);
    const card = turn.getByTestId('tool-card');
    await expect.poll(() => card.getAttribute('data-status')).toBe('done');
    expect(await card.getAttribute('data-tool')).toBe('warehouse_order_lookup');
    expect(await card.getByTestId('policy-decision').textContent()).toContain('allow');
    expect(await card.textContent()).toContain('shipped');
    expect(await turn.getByTestId('assistant-text').allTextContents()).toEqual([REPLY]);
    expect(await turn.getByTestId('cost').textContent()).toMatch(/2 model calls/);
    expect(lookups).toEqual([RECORDED_ORDER]);
  });

  it('approves one call and denies another inline; a reload while it waits shows each prompt once; the denied call never lands', async () => {
    const turn = await send(seller, 'Pay invoice 7 and close account 42');
    await expect.poll(() => turn.getByTestId('approval-prompt').count(), { timeout: 15_000 }).toBe(2);
    await seller.reload();
    const again = await turnOf(seller, 'Pay invoice 7');
    await expect.poll(() => again.getByTestId('approval-prompt').count()).toBe(2);
    expect(await again.getByTestId('tool-card').count()).toBe(2);
    const invoice = again.locator('[data-tool="send_invoice"]');
    const close = again.locator('[data-tool="close_account"]');
    await invoice.getByRole('button', { name: 'Approve' }).click();
    await close.getByRole('button', { name: 'Deny' }).click();
    await close.getByLabel('Reason for denying').fill('accounts are closed by support only');
    await close.getByRole('button', { name: 'Deny' }).click();
    await ended(seller, 'Pay invoice 7');
    await expect.poll(() => invoice.getAttribute('data-status')).toBe('done');
    expect(await close.getAttribute('data-status')).toBe('denied');
    expect(await close.textContent()).toContain('accounts are closed by support only');
    expect(await again.getByTestId('assistant-text').last().textContent()).toContain('Invoice 7 is paid');
    expect(counting.counter.hits('invoice')).toBe(1);
    expect(counting.counter.hits('close')).toBe(0);
  });

  it('saves a run as a skill with a preview of its abstraction, and replays it with chips and a cost banner', async () => {
    const turn = await turnOf(seller, `Where is order ${RECORDED_ORDER}?`);
    await turn.getByTestId('save-skill-link').click();
    await seller.getByLabel('Skill name (kebab-case)').fill('order-status');
    await seller.getByRole('button', { name: 'Save skill' }).click();
    const preview = seller.getByTestId('abstraction-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('skill-variable').allTextContents()).toEqual([expect.stringContaining('{{order_id}}')]);
    expect(await preview.textContent()).toContain('variable order_id');
    await seller.getByTestId('open-skill').click();
    await seller.getByLabel('order_id *').fill('W1000001');
    await seller.getByLabel('Mode').selectOption('deterministic');
    await seller.getByRole('button', { name: 'Run replay' }).click();
    const banner = seller.getByTestId('cost-banner');
    await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toMatch(/This replay: 0 model calls · 0 tokens · \$0\. The recording: 2 model calls · \d+ tokens/);
    const chip = seller.getByTestId('resolution-chip').first();
    await chip.waitFor();
    expect(await chip.getAttribute('data-strategy')).toBe('user_input');
    await chip.getByRole('button').focus();
    const tooltip = chip.getByRole('tooltip');
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    expect(await tooltip.textContent()).toContain('W1000001');
    expect(lookups.at(-1)).toBe('W1000001');
  });

  it('publishes the skill; a customer runs the product and the page holds nothing of its internals', async () => {
    await seller.goto(`${origin}/marketplace`);
    await seller.getByLabel('Product name').fill('where-is-my-order');
    await seller.getByLabel('Description').fill('Tells you where your order is.');
    await seller.getByLabel('Price (minor units, e.g. cents)').fill('150');
    await seller.getByLabel('Output fields (comma-separated, optional)').fill('order_id, status');
    await seller.getByRole('button', { name: 'Publish' }).click();
    expect(await seller.getByTestId('published').textContent()).toContain('where-is-my-order');

    const customerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const customer = await signedInPage(customerContext, origin, problems, 'customer@example.com', PASSWORD);
      await customer.goto(`${origin}/marketplace/where-is-my-order`);
      await customer.getByLabel('order_id *').fill('W5550001');
      await customer.getByRole('button', { name: /^Run for/ }).click();
      const result = customer.getByTestId('purchase-result');
      await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe('completed');
      expect(await result.textContent()).toContain('W5550001');
      expect(await result.textContent()).toContain('shipped');
      expect(await result.textContent()).toContain('€1.50');
      const html = await customer.content();
      for (const secret of ['warehouse_order_lookup', INTERNAL_URL, 'warehouse.internal', RECORDED_ORDER, 'order-status']) expect(html, secret).not.toContain(secret);
      expect(await customer.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await customerContext.close();
    }
  });

  it('turns right to left in Arabic and dark on request', async () => {
    await seller.goto(`${origin}/runs`);
    await seller.getByLabel('Language').selectOption('ar');
    expect(await seller.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await seller.locator('html').getAttribute('lang')).toBe('ar');
    const navigation = (await seller.getByTestId('navigation').boundingBox())!;
    expect(navigation.x).toBeGreaterThan(640);
    expect(navigation.x + navigation.width).toBeGreaterThan(1270);
    await seller.getByLabel('المظهر').selectOption('dark');
    expect(await seller.locator('html').getAttribute('class')).toContain('dark');
    const background = await seller.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    const channels = (background.match(/[\d.]+/g) ?? []).map(Number);
    expect(channels.length).toBeGreaterThanOrEqual(3);
    // A dark page: oklch lightness, or rgb channels, near the bottom.
    expect(background.startsWith('oklch') ? channels[0]! < 0.3 : Math.max(...channels.slice(0, 3)) < 60).toBe(true);
    await seller.getByLabel('اللغة').selectOption('en');
    await seller.getByLabel('Theme').selectOption('light');
    expect(await seller.locator('html').getAttribute('dir')).toBe('ltr');
  });

  it('reconnects after a server restart mid-stream and shows every event exactly once', async () => {
    await seller.goto(`${origin}/chat`);
    const turn = await send(seller, 'Prepare the slow report');
    const card = turn.locator('[data-tool="slow_report"]');
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 15_000 }).toBe('running');
    const port = server.listener.port;
    await server.close();
    server = await serveApi(runtime, { port, auth: 'accounts', webRoot: WEB_ROOT });
    await ended(seller, 'Prepare the slow report');
    const runId = (await turn.getAttribute('data-run-id'))!;
    const stored = await runtime.store.events.list(runId);
    expect(Number(await turn.getAttribute('data-event-count'))).toBe(stored.length);
    expect(await turn.locator('[data-tool="slow_report"]').count()).toBe(1);
    expect(await card.getAttribute('data-status')).toBe('done');
    expect(await turn.getByTestId('assistant-text').allTextContents()).toEqual(['The report is ready.']);
  });

  it('had no console errors and no failed requests to its own origin', () => {
    expect(problems.problems).toEqual([]);
  });
});
