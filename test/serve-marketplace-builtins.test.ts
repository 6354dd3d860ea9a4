import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeApiError, ForgeClient } from '../src/client/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';
const RECORDED_ORDER = 'W2890441';
const INTERNAL_NOTE = 'INTERNAL-NOTE-picker-bay-7';
const UPSTREAM_HEADER = 'upstream-trace-5f1c';

/** The warehouse's internal API: an order by the `x-order-id` header, with fields no customer should see. */
const ORDERS: Record<string, { status: string; eta: string }> = {
  [RECORDED_ORDER]: { status: 'shipped', eta: '2026-12-03' },
  W5550001: { status: 'packed', eta: '2026-12-09' },
};

/**
 * Finding 1 (issue 26) with the built-in tools a skill ends on: a seller's skill whose last step is
 * `http_request` (or `read_url`) is packaged; a customer's answer is built from the skill's answer
 * template or the product's declared outputs, never the raw tool result (tool name, internal URL and
 * port, upstream headers, fields nobody declared, the boundary tags). A product whose answer would be a
 * raw tool result is refused when it is published.
 */
describe('marketplace answers of skills that end on a built-in tool', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let warehouse: Server;
  let warehouseOrigin: string;
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let seller: ForgeClient;
  let customer: ForgeClient;
  const customerAnswers: string[] = [];

  async function asCustomer<T>(call: () => Promise<T>): Promise<T | ForgeApiError> {
    try {
      const answer = await call();
      customerAnswers.push(JSON.stringify(answer));
      return answer;
    } catch (error) {
      if (!(error instanceof ForgeApiError)) throw error;
      customerAnswers.push(JSON.stringify({ status: error.status, name: error.code, message: error.message, hint: error.hint }));
      return error;
    }
  }

  async function purchased(product: string, inputs: Record<string, unknown>) {
    const started = (await asCustomer(() => customer.runProduct(product, inputs))) as { purchase_id: string };
    await runtime.marketplace.settled();
    return asCustomer(() => customer.getPurchase(started.purchase_id));
  }

  /** A seller's chat turn, finished and stored, as a saved skill. */
  async function recordedSkill(message: string, name: string) {
    const conversation = await seller.createConversation(name);
    const sent = await seller.sendMessage(conversation.conversation_id, message, { model: MODEL });
    const reply = await seller.readEvents(sent.run_id);
    expect(reply.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    for await (const _event of runtime.runs.eventsAfter(sent.run_id, Number.MAX_SAFE_INTEGER - 1)) {
      // Waits until the run's store copy is complete.
    }
    return seller.saveSkill({ run_id: sent.run_id, name });
  }

  beforeAll(async () => {
    warehouse = createServer((request, response) => {
      const id = String(request.headers['x-order-id'] ?? '');
      const order = ORDERS[id];
      if (request.url === '/notes.txt') {
        response.writeHead(200, { 'content-type': 'text/plain', 'x-upstream-trace': UPSTREAM_HEADER });
        response.end(`Warehouse notes\nBay 7 is closed for inventory this week. ${INTERNAL_NOTE}\n`);
        return;
      }
      response.writeHead(order === undefined ? 404 : 200, { 'content-type': 'application/json', 'x-upstream-trace': UPSTREAM_HEADER });
      response.end(JSON.stringify(order === undefined ? { error: 'no such order' } : { order_id: id, ...order, internal_note: INTERNAL_NOTE, picker: 'bay-7' }));
    });
    await new Promise<void>((resolve) => warehouse.listen(0, '127.0.0.1', resolve));
    const port = (warehouse.address() as AddressInfo).port;
    warehouseOrigin = `http://127.0.0.1:${port}`;
    await mock.start();
    mock.on(
      { userMessage: `Where is order ${RECORDED_ORDER}?`, hasToolResult: false },
      { toolCalls: [{ id: 'http_1', name: 'http_request', arguments: { method: 'GET', url: `${warehouseOrigin}/api/orders`, headers: { 'x-order-id': RECORDED_ORDER } } }] },
    );
    mock.on({ toolCallId: 'http_1' }, { content: `Order ${RECORDED_ORDER} is shipped; it arrives on 2026-12-03.` });
    mock.on({ userMessage: 'What do the warehouse notes say?', hasToolResult: false }, { toolCalls: [{ id: 'read_1', name: 'read_url', arguments: { url: `${warehouseOrigin}/notes.txt` } }] });
    mock.on({ toolCallId: 'read_1' }, { content: 'The notes say that bay 7 is closed for inventory this week.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-marketplace-builtins-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: `127.0.0.1:${port}` }, home, { mcp: { startupWaitMs: 0 } });
    await runtime.accounts.addUser({ email: 'seller@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'customer@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    seller = new ForgeClient({ baseUrl: server.listener.origin });
    await seller.login('seller@example.com', PASSWORD);
    customer = new ForgeClient({ baseUrl: server.listener.origin });
    await customer.login('customer@example.com', PASSWORD);
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await new Promise((resolve) => warehouse?.close(resolve));
    await rm(home, { recursive: true, force: true });
  });

  it('an http_request skill: the customer answer is the recorded answer bound to this run\'s values, and declared outputs are the values, not null', async () => {
    const saved = await recordedSkill(`Where is order ${RECORDED_ORDER}?`, 'order-eta');
    const [input] = saved.skill.inputs;
    expect(saved.skill.inputs).toHaveLength(1);

    await seller.publishProduct({ skill: 'order-eta', name: 'order-eta-text', description: 'When your order arrives.', price_minor: 100, currency: 'EUR' });
    const text = await purchased('order-eta-text', { [input!]: 'W5550001' });
    expect(text).toMatchObject({ status: 'completed', result: 'Order W5550001 is packed; it arrives on 2026-12-09.' });

    await seller.publishProduct({ skill: 'order-eta', name: 'order-eta-fields', description: 'Status and arrival date.', price_minor: 100, currency: 'EUR', output_fields: ['status', 'eta'] });
    const fields = await purchased('order-eta-fields', { [input!]: 'W5550001' });
    expect(fields).toMatchObject({ status: 'completed' });
    expect(JSON.parse((fields as { result: string }).result)).toEqual({ status: 'packed', eta: '2026-12-09' });
  });

  it('a skill whose answer cannot be bound to its results is refused at publishing, naming the fix; with declared outputs it is refused too when they name nothing the skill outputs', async () => {
    await recordedSkill('What do the warehouse notes say?', 'warehouse-notes');
    const refused = await seller.publishProduct({ skill: 'warehouse-notes', name: 'notes', description: 'The notes.', price_minor: 10, currency: 'EUR' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ForgeApiError);
    expect(refused).toMatchObject({ status: 400, code: 'ProductOutputError' });
    expect((refused as ForgeApiError).hint).toMatch(/output_fields/);
    const unknownField = await seller.publishProduct({ skill: 'order-eta', name: 'order-eta-bad', description: 'x', price_minor: 1, currency: 'EUR', output_fields: ['internal_note'] }).catch((error: unknown) => error);
    expect(unknownField).toMatchObject({ status: 400, code: 'ProductOutputError' });
    expect((await seller.listProducts()).map((product) => product.product)).not.toContain('notes');
  });

  it('leak test: no customer answer holds the tool, the internal URL or port, upstream headers, undeclared fields, the recorded order or a boundary tag', () => {
    expect(customerAnswers.length).toBeGreaterThanOrEqual(4);
    const port = new URL(warehouseOrigin).port;
    const needles = [RECORDED_ORDER, INTERNAL_NOTE, UPSTREAM_HEADER, 'bay-7', 'http_request', 'read_url', warehouseOrigin, '127.0.0.1', `:${port}`, 'x-upstream-trace', 'content-type', 'untrusted-content', '"headers"', '"url"'];
    for (const answer of customerAnswers) {
      for (const needle of needles) expect(answer.includes(needle), `${needle} in ${answer.slice(0, 400)}`).toBe(false);
    }
  });
});
