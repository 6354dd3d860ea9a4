import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeApiError, ForgeClient } from '../src/client/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';
const RECORDED_ORDER = 'W2890441';
const INTERNAL_URL = 'https://warehouse.internal.example/api/orders';

/**
 * The marketplace end to end through the typed client, aimock as the model: a seller chats (the reply
 * streams its tool call), saves the run as a skill, replays it, packages and publishes it; a customer
 * lists and runs it and sees only the contract and the result — checked by searching every answer a
 * customer gets, errors included, for what the skill knows.
 */
describe('the skill marketplace over the API', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let seller: ForgeClient;
  let customer: ForgeClient;
  const customerAnswers: string[] = [];
  const lookups: string[] = [];

  /** A customer call whose answer (or error) is kept for the leak search. */
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

  async function finished(purchaseId: string) {
    await runtime.marketplace.settled();
    return asCustomer(() => customer.getPurchase(purchaseId));
  }

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: `Where is order ${RECORDED_ORDER}?`, hasToolResult: false }, { toolCalls: [{ id: 'lookup_1', name: 'warehouse_order_lookup', arguments: { order_id: RECORDED_ORDER } }] });
    mock.on({ toolCallId: 'lookup_1' }, { content: `Order ${RECORDED_ORDER} has shipped.` });
    home = await mkdtemp(path.join(tmpdir(), 'forge-marketplace-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(
      defineTool({
        name: 'warehouse_order_lookup',
        description: 'Looks an order up in the warehouse system.',
        inputSchema: z.object({ order_id: z.string() }),
        risk: 'low',
        sideEffect: 'read',
        execute: async ({ order_id }) => {
          lookups.push(order_id);
          if (order_id === 'BROKEN') throw new Error(`warehouse_order_lookup failed at ${INTERNAL_URL}/${order_id}`);
          return { order_id, status: 'shipped', source: `${INTERNAL_URL}/${order_id}` };
        },
      }),
    );
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
    await rm(home, { recursive: true, force: true });
  });

  it('chat → skill → replay → product; a customer runs it and gets the contract and the result only', async () => {
    // The seller chats; the reply streams with its tool call.
    const conversation = await seller.createConversation('orders');
    const sent = await seller.sendMessage(conversation.conversation_id, `Where is order ${RECORDED_ORDER}?`, { model: MODEL });
    const reply = await seller.readEvents(sent.run_id);
    expect(reply.events.find((event) => event.type === 'tool-call-start')).toMatchObject({ tool: 'warehouse_order_lookup', input: { order_id: RECORDED_ORDER } });
    expect(reply.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    for await (const _event of runtime.runs.eventsAfter(sent.run_id, Number.MAX_SAFE_INTEGER - 1)) {
      // Waits until the run's store copy is complete.
    }

    // Saved as a skill, with a preview of the abstraction; replayed with no model call.
    const saved = await seller.saveSkill({ run_id: sent.run_id, name: 'order-status' });
    expect(saved.skill).toMatchObject({ skill: 'order-status', version: 1, steps: 1, inputs: ['order_id'] });
    const callsBefore = mock.getRequests().length;
    const replayed = await seller.runSkill('order-status', { order_id: 'W1000001' });
    expect(replayed).toMatchObject({ status: 'completed', llm_calls: 0 });
    expect(replayed.answer).toContain('W1000001');
    expect(mock.getRequests().length).toBe(callsBefore);
    expect((await seller.listSkills()).map((skill) => skill.skill)).toEqual(['order-status']);
    // The customer has no skills and cannot replay the seller's, read it, or version onto its name.
    expect(await customer.listSkills()).toEqual([]);
    expect(await customer.getSkill('order-status').catch((error: unknown) => error)).toMatchObject({ status: 404 });
    const { document } = await seller.getSkill('order-status');
    expect(await customer.importSkill({ ...document, description: 'hijacked' }).catch((error: unknown) => error)).toMatchObject({ status: 409, code: 'SkillConflictError' });
    expect((await seller.getSkill('order-status')).skill).toMatchObject({ version: 1, description: saved.skill.description });
    expect((await customer.importSkill({ ...document, name: 'my-copy' })).skill).toMatchObject({ skill: 'my-copy', version: 1 });
    expect((await customer.listSkills()).map((skill) => skill.skill)).toEqual(['my-copy']);
    expect(await customer.runSkill('order-status', { order_id: 'W1' }).catch((error: unknown) => error)).toMatchObject({ status: 404 });

    // Packaged and published; a second version republished moves the pin.
    const product = await seller.publishProduct({ skill: 'order-status', name: 'where-is-my-order', description: 'Tells you where your order is.', price_minor: 150, currency: 'EUR', output_fields: ['order_id', 'status'] });
    expect(product).toMatchObject({ product: 'where-is-my-order', skill: 'order-status', skill_version: 1, published: true, price: { amount_minor: 150, currency: 'EUR' } });

    // The customer lists it and reads its contract.
    const listed = await asCustomer(() => customer.listProducts());
    expect(listed).toEqual([
      {
        product: 'where-is-my-order',
        description: 'Tells you where your order is.',
        price: { amount_minor: 150, currency: 'EUR' },
        inputs_schema: { type: 'object', properties: { order_id: { type: 'string', description: 'The order id.' } }, required: ['order_id'], additionalProperties: false },
        output: { type: 'object', fields: ['order_id', 'status'], description: 'A JSON object with order_id, status.' },
      },
    ]);
    expect(await asCustomer(() => customer.getProduct('where-is-my-order'))).toEqual((listed as unknown[])[0]);

    // Runs it; polls the result; is charged the price.
    const started = await asCustomer(() => customer.runProduct('where-is-my-order', { order_id: 'W5550001' }));
    expect(started).toMatchObject({ status: 'running', charged: { amount_minor: 0, currency: 'EUR' } });
    const done = await finished((started as { purchase_id: string }).purchase_id);
    expect(done).toMatchObject({ status: 'completed', message: null, charged: { amount_minor: 150, currency: 'EUR' } });
    expect(JSON.parse((done as { result: string }).result)).toEqual({ order_id: 'W5550001', status: 'shipped' });
    expect(lookups.at(-1)).toBe('W5550001');

    // A failing run is not charged and says nothing of why inside.
    const broken = await asCustomer(() => customer.runProduct('where-is-my-order', { order_id: 'BROKEN' }));
    const failed = await finished((broken as { purchase_id: string }).purchase_id);
    expect(failed).toMatchObject({ status: 'failed', result: null, charged: { amount_minor: 0 } });

    // Bad inputs and unknown names: errors that name only the form.
    expect(await asCustomer(() => customer.runProduct('where-is-my-order', {}))).toMatchObject({ status: 400, code: 'MarketplaceInputError' });
    expect(await asCustomer(() => customer.runProduct('where-is-my-order', { order_id: 7 }))).toMatchObject({ status: 400 });
    expect(await asCustomer(() => customer.runProduct('where-is-my-order', { order_id: 'W1', resolution: 'x' }))).toMatchObject({ status: 400 });
    expect(await asCustomer(() => customer.runProduct('no-such-product', { order_id: 'W1' }))).toMatchObject({ status: 404 });
    expect(await asCustomer(() => customer.getPurchase('0000000000000000'))).toMatchObject({ status: 404 });

    // The usage ledger: the customer's own runs, with what each was charged.
    const usage = await asCustomer(() => customer.usage());
    expect(usage).toMatchObject({ totals: [{ currency: 'EUR', charged_minor: 150, runs: 2 }] });
    // The ledger keeps the real model cost and the run for the seller's side.
    const rows = await runtime.store.marketplace.listPurchases((await runtime.accounts.requireUser('customer@example.com')).id);
    expect(rows.every((row) => row.runId !== null)).toBe(true);

    // The customer cannot read the run the purchase made: it is the seller's.
    expect(await customer.getRun(rows[0]!.runId!).catch((error: unknown) => error)).toMatchObject({ status: 404 });
    expect(await customer.readEvents(rows[0]!.runId!).catch((error: unknown) => error)).toMatchObject({ status: 404 });

    // Nor change the seller's product.
    expect(await customer.unpublishProduct('where-is-my-order').catch((error: unknown) => error)).toMatchObject({ status: 404 });
    expect(await customer.publishProduct({ skill: 'order-status', name: 'stolen', description: 'x', price_minor: 1, currency: 'EUR' }).catch((error: unknown) => error)).toMatchObject({ status: 404 });

    // Unpublished, it is gone for customers.
    await seller.unpublishProduct('where-is-my-order');
    expect(await asCustomer(() => customer.listProducts())).toEqual([]);
    expect(await asCustomer(() => customer.runProduct('where-is-my-order', { order_id: 'W1' }))).toMatchObject({ status: 404 });
  });

  it('leak test: no customer answer holds a recorded value, a URL, a tool name or a trace field', async () => {
    expect(customerAnswers.length).toBeGreaterThan(10);
    const secrets = [RECORDED_ORDER, INTERNAL_URL, 'warehouse.internal', 'warehouse_order_lookup', 'Looks an order up'];
    const traceFields = ['"steps"', '"step"', '"tool"', '"tools"', '"arguments"', '"binding"', '"bindings"', '"recording"', '"recordings"', '"provenance"', '"task_template"', '"run_id"', '"model"', '"llm_calls"', '"resolution"', '"mode"', '"examples"', '"skill"', '"skill_version"', '"events"', '"cost_usd"', '"tokens"'];
    for (const answer of customerAnswers) {
      for (const needle of [...secrets, ...traceFields]) expect(answer.includes(needle), `${needle} in ${answer.slice(0, 300)}`).toBe(false);
    }
  });
});
