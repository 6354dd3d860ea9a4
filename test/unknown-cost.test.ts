import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { runCli } from './support/built-cli.js';
import { launchChromium, PageProblems, signedInPage } from './support/web-ui-browser.js';
import { WEB_ROOT } from './support/web-ui-build.js';

const PASSWORD = 'a long enough password';
// gpt-4.1-mini's list price: $0.40 in and $1.60 out per million tokens.
const PRICED_COST = (100 * 0.4 + 20 * 1.6) / 1_000_000;

/**
 * A model without a known price (an OpenAI-compatible server, aimock here) costs "unknown", never $0:
 * in a waiting run's record (whose counts include the call it made before it paused), in the usage
 * totals (unknown, with the priced part and the number of unpriced calls beside), over the API, in
 * the CLI's `--json` and text, and on the Usage page and the chat footer in Chromium.
 */
describe('an unknown cost stays unknown', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  const problems = new PageProblems();
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let client: ForgeClient;
  let browser: Browser;
  let page: Page;
  let unpriced: string;
  let waitingRunId: string;
  const refunds: string[] = [];

  async function api<T>(route: string): Promise<T> {
    const response = await fetch(`${origin}/api/v1${route}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, route).toBe(200);
    return (await response.json()) as T;
  }
  let token: string;

  async function settled(runId: string): Promise<void> {
    for await (const _event of runtime.runs.eventsAfter(runId, Number.MAX_SAFE_INTEGER - 1)) {
      // Ends when the run's feed closes (it ended or paused).
    }
  }

  beforeAll(async () => {
    await mock.start();
    unpriced = `openai-compatible:local-llm@${mock.url}/v1`;
    mock.on({ userMessage: 'A priced question', hasToolResult: false }, { content: 'A priced answer.', usage: { prompt_tokens: 100, completion_tokens: 20 } });
    mock.on({ userMessage: 'An unpriced question', hasToolResult: false }, { content: 'An unpriced answer.', usage: { prompt_tokens: 40, completion_tokens: 8 } });
    mock.on({ userMessage: 'Refund order 7', hasToolResult: false }, { toolCalls: [{ id: 'refund_7', name: 'refund_order', arguments: { order_id: '7' } }], usage: { prompt_tokens: 50, completion_tokens: 10 } });
    home = await mkdtemp(path.join(tmpdir(), 'forge-unknown-cost-'));
    runtime = await openRuntime(
      { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_MODEL: unpriced, FORGE_REQUIRE_APPROVAL: 'refund_order', FORGE_API_RATE_LIMIT: '0' },
      home,
      { mcp: { startupWaitMs: 0 } },
    );
    runtime.registry.register(
      defineTool({
        name: 'refund_order',
        description: 'Refunds an order.',
        inputSchema: z.object({ order_id: z.string() }),
        risk: 'medium',
        sideEffect: 'write',
        execute: async ({ order_id }) => {
          refunds.push(order_id);
          return 'refunded';
        },
      }),
    );
    await runtime.accounts.addUser({ email: 'admin@example.com', password: PASSWORD, role: 'admin' });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', webRoot: WEB_ROOT });
    origin = server.listener.origin;
    client = new ForgeClient({ baseUrl: origin });
    token = (await client.login('admin@example.com', PASSWORD)).access_token;

    const priced = await client.startRun({ task: 'A priced question', model: 'openai:gpt-4.1-mini' });
    await settled(priced.run_id);
    const unpricedRun = await client.startRun({ task: 'An unpriced question' });
    await settled(unpricedRun.run_id);
    browser = await launchChromium();
    page = await signedInPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }), origin, problems, 'admin@example.com', PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('the chat footer of a waiting turn counts the call it made, and its cost reads unknown', async () => {
    await page.getByLabel('Message').fill('Refund order 7');
    await page.getByRole('button', { name: 'Send' }).click();
    const turn = page.getByTestId('turn').filter({ hasText: 'Refund order 7' }).last();
    await turn.getByTestId('approval-prompt').first().waitFor({ timeout: 20_000 });
    waitingRunId = (await turn.getAttribute('data-run-id'))!;
    const footer = turn.getByTestId('cost');
    await expect.poll(() => footer.textContent()).toContain('1 model calls');
    expect(await footer.textContent()).toContain('cost unknown ($0 known · 1 unpriced calls)');
    // $0 only as the known part, never as the cost.
    expect(await footer.textContent()).not.toMatch(/\$0(?! known)/);
    expect(refunds).toEqual([]);
  }, 60_000);

  it("the API's run record of the waiting run has its call, tokens, and an unknown cost with the known part", async () => {
    await expect.poll(async () => (await runtime.runs.get(waitingRunId)).status).toBe('waiting');
    const run = await api<Record<string, unknown>>(`/runs/${waitingRunId}`);
    expect(run).toMatchObject({ status: 'waiting', llm_calls: 1, tokens: { input: 50, output: 10 }, cost_usd: null, cost_usd_known: 0, unpriced_calls: 1 });
  });

  it("GET /usage: the unpriced model's row and the total are unknown, with the priced part and the unpriced calls beside", async () => {
    const usage = await api<{ by_kind_and_model: Record<string, unknown>[]; total: Record<string, unknown> }>('/usage');
    expect(usage.by_kind_and_model).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: 'openai:gpt-4.1-mini', llm_calls: 1, cost_usd: PRICED_COST, cost_usd_known: PRICED_COST, unpriced_calls: 0 }),
        expect.objectContaining({ model: 'openai-compatible:local-llm', runs: 2, llm_calls: 2, cost_usd: null, cost_usd_known: 0, unpriced_calls: 2 }),
      ]),
    );
    expect(usage.total).toEqual({ llm_calls: 3, tokens: { input: 190, output: 38 }, cost_usd: null, cost_usd_known: PRICED_COST, unpriced_calls: 2 });
  });

  it('the Usage page reads unknown for the unpriced model and for the total, and shows the known part', async () => {
    await page.goto(`${origin}/usage`);
    const row = page.getByRole('row').filter({ hasText: 'local-llm' });
    await row.waitFor();
    expect(await row.textContent()).toContain('unknown ($0 known · 2 unpriced calls)');
    expect(await row.textContent()).not.toMatch(/\$0(?! known)/);
    const total = page.getByTestId('usage-total');
    expect(await total.textContent()).toContain('unknown');
    expect(await total.textContent()).toContain('$0.000072 known');
    expect(await total.textContent()).toContain('2 unpriced calls');
    expect(problems.problems).toEqual([]);
  });

  it('forge runs show: --json has the waiting run\'s call and an unknown cost; the text says unknown', async () => {
    const env = { PATH: process.env['PATH'] ?? '', FORGE_HOME: home };
    const json = await runCli(['runs', 'show', waitingRunId, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'waiting', llm_calls: 1, tokens: { input: 50, output: 10 }, cost_usd: null, cost_usd_known: 0, unpriced_calls: 1 });
    const text = await runCli(['runs', 'show', waitingRunId], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/llm calls +1 \(50 in \/ 10 out tokens, cost unknown \(1 unpriced call; \$0\.000000 known\)\)/);
  }, 60_000);
});
