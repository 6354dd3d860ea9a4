import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { defineTool } from '../src/core/index.js';
import { loadRetailData, type RetailTask } from '../bench/taubench/index.js';
import { RetailSkillsWorld, type RecordedRetailSkill } from './support/retail-skills-world.js';

/**
 * The failure classes skills showed on τ-bench retail, each reproduced on the real domain (its tools
 * re-implemented in bench/taubench, served over MCP on loopback) and judged by the database a replay
 * leaves: a replay either makes exactly the ground truth's writes, or refuses before writing.
 */

/** Two tasks built from the data (not in τ-bench's list): an exchange whose request names the new variant's colour. */
const yogaMatForNoah: RetailTask = {
  index: 9001,
  annotator: 'forge-test',
  user_id: 'noah_wilson_5178',
  instruction: 'You are Noah Wilson in zip code 78703. Exchange the Yoga Mat of your delivered order for the pink one and pay any difference with the same method as the order.',
  actions: [
    { name: 'find_user_id_by_name_zip', kwargs: { first_name: 'Noah', last_name: 'Wilson', zip: '78703' } },
    { name: 'get_user_details', kwargs: { user_id: 'noah_wilson_5178' } },
    { name: 'get_order_details', kwargs: { order_id: '#W8863729' } },
    { name: 'get_product_details', kwargs: { product_id: '4635925001' } },
    { name: 'exchange_delivered_order_items', kwargs: { order_id: '#W8863729', item_ids: ['5586947715'], new_item_ids: ['1794273251'], payment_method_id: 'paypal_1521508' } },
  ],
  outputs: [],
};
const yogaMatForMia: RetailTask = {
  index: 9002,
  annotator: 'forge-test',
  user_id: 'mia_johansson_7000',
  instruction: 'You are Mia Johansson in zip code 78280. Exchange the Yoga Mat of your delivered order for the blue one and pay any difference with the same method as the order.',
  actions: [
    { name: 'find_user_id_by_name_zip', kwargs: { first_name: 'Mia', last_name: 'Johansson', zip: '78280' } },
    { name: 'get_user_details', kwargs: { user_id: 'mia_johansson_7000' } },
    { name: 'get_order_details', kwargs: { order_id: '#W8346517' } },
    { name: 'get_product_details', kwargs: { product_id: '4635925001' } },
    { name: 'exchange_delivered_order_items', kwargs: { order_id: '#W8346517', item_ids: ['7510236436'], new_item_ids: ['5586947715'], payment_method_id: 'credit_card_6706014' } },
  ],
  outputs: [],
};

describe('skills on τ-bench retail: every failure class, reproduced and closed', () => {
  let world: RetailSkillsWorld;
  let exchange: RecordedRetailSkill;

  beforeAll(async () => {
    world = await RetailSkillsWorld.start();
    exchange = await world.record(world.task(18), { name: 'exchange-one-item' });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('1. one result representation: a replay reads the MCP JSON-string results as recording did, so bindings find fresh values', async () => {
    const replay = await world.replay(exchange, world.task(52));

    const ordersOfSofia = world.server.data.users.get('sofia_li_9219')!.orders;
    expect(replay.result.steps[1]!.arguments).toEqual({ user_id: 'sofia_li_9219' });
    expect(ordersOfSofia).toContain(replay.result.steps[2]!.arguments['order_id']);
    expect(replay.result.steps[2]!.resolutions[0]).toMatchObject({ strategy: 'llm_rescue', proven: true, candidates: ordersOfSofia.length });
    expect(replay.verdict).toBe('correct');
  });

  it('2. no recorded constants in writes: ids the request does not say are inputs, and a replay writes only the order it is given', async () => {
    const cancel = await world.record(world.task(88), { name: 'cancel-order' });
    expect(cancel.skill.steps[0]!.arguments).toEqual([
      { path: 'order_id', binding: { kind: 'input', name: 'order_id' } },
      { path: 'reason', binding: { kind: 'input', name: 'reason' } },
    ]);
    expect(cancel.skill.variables_schema.properties['reason']!.enum).toEqual(['no longer needed', 'ordered by mistake']);

    const replay = await world.replay(cancel, world.task(90));

    expect(replay.writes).toEqual([{ tool: 'cancel_pending_order', arguments: { order_id: '#W9284598', reason: 'ordered by mistake' } }]);
    expect(replay.verdict).toBe('correct');
    expect(world.server.data.orders.get('#W8835847')!.status).toBe('pending');
  });

  it('2. a write constant the skill does not pin makes the replay refuse before the write, naming it', async () => {
    const cancel = await world.record(world.task(88), { name: 'cancel-order-pinned', constants: ['steps[0].reason'] });
    // What a skill saved before write inputs existed looks like: the recorded order id as a plain constant.
    const skill = {
      ...cancel.skill,
      variables_schema: { ...cancel.skill.variables_schema, properties: {}, required: [] },
      variable_origins: {},
      steps: cancel.skill.steps.map((step) => ({ ...step, arguments: step.arguments.map((argument) => (argument.path === 'order_id' ? { path: 'order_id', binding: { kind: 'constant' as const, value: '#W8835847', pinned: false } } : argument)) })),
    };

    const replay = await world.replay({ ...cancel, skill }, world.task(90), { inputs: {}, run: { skill } });

    expect(replay.result).toMatchObject({ status: 'refused', halt_reason: 'refused', writes: [] });
    expect(replay.result.refusal?.reasons[0]).toContain('steps[0].order_id = "#W8835847" is a constant from the recording (not pinned), not proven for this replay');
    expect(replay.calls).toEqual([]);
  });

  it('3. ids are not wording: the user id comes from the lookup\'s plain-string result, not from the words it shares with the request', () => {
    expect(exchange.skill.steps[1]!.arguments).toEqual([{ path: 'user_id', binding: { kind: 'result', step: 0, path: '' } }]);
    expect(Object.keys(exchange.skill.variables_schema.properties)).not.toContain('user_id');
  });

  it('4. choices are conditions: the new variant is the entry of the id-keyed variants whose colour the request names, chosen without a model', async () => {
    const recorded = await world.record(yogaMatForNoah, { name: 'exchange-for-colour' });
    const variants = recorded.skill.selections.find((selection) => selection.collection === 'variants[*]')!;
    expect(variants).toMatchObject({ cardinality: 'many', field: 'item_id' });
    expect(variants.conditions).toEqual(
      expect.arrayContaining([
        { field: 'available', operator: 'equals', operand: { literal: true } },
        { field: 'options.color', operator: 'in', operand: { input: expect.stringMatching(/^colors?$/) } },
      ]),
    );

    const replay = await world.replay(recorded, yogaMatForMia);

    const newItems = replay.result.steps[4]!.resolutions.find((resolution) => resolution.name === 'steps[4].new_item_ids')!;
    expect(newItems).toMatchObject({ strategy: 'heuristic', value: ['5586947715'], proven: true });
    expect(replay.verdict).toBe('correct');
  });

  it('5. lists are lists: a return recorded with four items replays with the one item another task names', async () => {
    const returns = await world.record(world.task(73), { name: 'return-items' });
    expect(returns.skill.variables_schema.properties['item_ids']).toMatchObject({ type: 'array', items: { type: 'string' } });

    const replay = await world.replay(returns, world.task(83));

    expect(replay.writes).toEqual([{ tool: 'return_delivered_order_items', arguments: { order_id: '#W9571698', item_ids: ['6065192424'], payment_method_id: 'gift_card_7250692' } }]);
    expect(replay.verdict).toBe('correct');
  });

  it('6. no recorded-value fallback on writes: with the rescue declining, the replay refuses before the exchange instead of sending the recorded choice', async () => {
    const replay = await world.replay(exchange, world.task(52), { rescue: 'none' });

    expect(replay.result.status).toBe('refused');
    expect(replay.writes).toEqual([]);
    expect(replay.result.refusal?.tool).toBe('mcp__retail__exchange_delivered_order_items');
    expect(replay.result.refusal?.reasons.join(' ')).toContain('not proven for this replay');
  });

  it('6. with no model at all, a guided replay that needs a choice refuses before the write', async () => {
    const modelless = await world.runtimeWithoutModel();
    try {
      const replay = await world.replay(exchange, world.task(52), { runtime: modelless });
      expect(replay.result).toMatchObject({ status: 'refused', llm_calls: 0 });
      expect(replay.writes).toEqual([]);
    } finally {
      await modelless.close();
    }
  });

  it('7. one variable per role: the zip of the lookup and the zip of the new address are two roles, though equal when recorded', async () => {
    const recorded = await world.record(world.task(41), { name: 'addresses-then-items' });
    const lookupZip = recorded.skill.steps[0]!.arguments.find((argument) => argument.path === 'zip')!.binding;
    const addressZips = recorded.skill.steps.filter((step) => step.tool.endsWith('_address')).map((step) => step.arguments.find((argument) => argument.path === 'zip')!.binding);
    expect(lookupZip).toEqual({ kind: 'input', name: 'zip' });
    // The new address is the user's default address as the lookup returned it: the record's zip, not the lookup's input.
    expect(addressZips).toEqual([
      { kind: 'result', step: 1, path: 'address.zip' },
      { kind: 'result', step: 1, path: 'address.zip' },
      { kind: 'result', step: 1, path: 'address.zip' },
    ]);
  });

  it('7. one variable per role: an order used by two writes when recorded is not written twice when the task names two orders', async () => {
    const recorded = await world.record(world.task(110), { name: 'address-and-items' });
    const [addressOrder, itemsOrder] = recorded.skill.steps.filter((step) => step.tool.endsWith('pending_order_address') || step.tool.endsWith('pending_order_items')).map((step) => step.arguments.find((argument) => argument.path === 'order_id')!.binding);
    expect(addressOrder).toEqual({ kind: 'input', name: 'order_id' });
    expect(itemsOrder).toMatchObject({ kind: 'selected' });

    // Task 111 changes the address of #W1092119 and the items of #W1603792.
    const inputs = { ...world.oracleInputs(recorded, world.task(111)), item_names: ['Bluetooth Speaker'] };
    const replay = await world.replay(recorded, world.task(111), { inputs });

    expect(replay.writes.map((write) => [write.tool, (write.arguments as { order_id?: string }).order_id])).toEqual([
      ['modify_pending_order_address', '#W1092119'],
      ['modify_user_address', undefined],
    ]);
    expect(replay.calls.filter((call) => call.tool === 'modify_pending_order_items')).toEqual([]);
    expect(replay.result.status).toBe('refused');
    expect(replay.verdict).toBe('safe-refusal');
  });

  it('8. derived values are expressions: the price difference is computed from this replay\'s prices, not replayed as recorded', async () => {
    const recorded = await world.record(world.task(44), { name: 'cheapest-variant' });
    const expression = recorded.skill.steps.find((step) => step.tool.endsWith('calculate'))!.arguments[0]!.binding;
    expect(expression).toMatchObject({ kind: 'template', template: '{{value_1}} - {{value_2}}' });

    expect(Object.values((expression as { slots: Record<string, { kind: string }> }).slots).map((slot) => slot.kind)).toEqual(['selected', 'selected']);

    const replay = await world.replay(recorded, world.task(61));

    // Each number is a price this replay read: a variant of the product it looked up, the item of the order it looked up.
    const calculate = replay.calls.find((call) => call.tool === 'calculate')!;
    const [newPrice, oldPrice] = String((calculate.arguments as { expression: string }).expression).split(' - ').map(Number);
    const before = loadRetailData();
    expect([...before.products.get('9924732112')!.variants.values()].map((variant) => Number(variant.price))).toContain(newPrice);
    expect(before.orders.get('#W5061109')!.items.map((item) => Number(item.price))).toContain(oldPrice);
    expect(calculate.arguments).not.toEqual({ expression: '135.24 - 153.23' });
    expect(replay.verdict).toBe('correct');
  });

  it('9. stale before the damage: a lookup that no longer returns the recorded shape stops the replay before the write', async () => {
    const recorded = await world.record(world.task(18), { name: 'exchange-then-stale' });
    const name = 'mcp__retail__get_order_details';
    const live = world.runtime.registry.get(name)!;
    world.runtime.registry.unregister(name);
    world.runtime.registry.register(defineTool({ ...live, inputSchema: live.inputSchema as z.ZodType<{ order_id: string }>, execute: async (input, context) => ({ order: await live.execute(input, context) }) }));
    try {
      const replay = await world.replay(recorded, world.task(52));

      expect(replay.result.status).toBe('failed');
      expect(replay.result.stale).toContain('output contract failed: step 2');
      expect(replay.calls.map((call) => call.tool)).not.toContain('exchange_delivered_order_items');
      expect(await world.runtime.store.skills.get('exchange-then-stale')).toMatchObject({ status: 'stale' });
    } finally {
      world.runtime.registry.unregister(name);
      world.runtime.registry.register(live);
    }
  });

  it('9. preconditions: the state a write relied on when recorded is checked on the fresh results before the write', async () => {
    const exchangeStep = exchange.skill.steps.at(-1)!;
    expect(exchangeStep.preconditions).toEqual([{ step: 2, path: 'status', equals: 'delivered' }]);
    world.server.reset();
    const replay = await world.replay(exchange, world.task(52), {
      run: {},
      before: () => {
        // The order the rescue will choose is no longer delivered when this replay reads it.
        for (const order of world.server.data.orders.values()) if (order.user_id === 'sofia_li_9219') order.status = 'processed';
      },
    });

    expect(replay.result.status).toBe('refused');
    expect(replay.result.refusal?.reasons).toContain('step 2\'s status is "processed" where the recording saw "delivered"');
    expect(replay.writes).toEqual([]);
  });

  it('10. a rescue sees each candidate\'s fields: the variants with their options, price and availability, and the orders as their lookups describe them', async () => {
    world.rescuePrompts.length = 0;
    await world.replay(exchange, world.task(52));

    const variantPrompt = world.rescuePrompts.find((prompt) => prompt.includes('new_item_ids'))!;
    expect(variantPrompt).toMatch(/\n\d+\. \d{10} — available: (true|false), price: \d+(\.\d+)?, options\.[a-z]+: /);
    // A user's orders are bare ids; the rescue is shown what each order is (its lookup, run for the purpose).
    const orderPrompt = world.rescuePrompts.find((prompt) => prompt.includes('"steps[2].order_id"'))!;
    expect(orderPrompt).toMatch(/\n0\. #W\d{7} — order_id: #W\d{7}, user_id: sofia_li_9219, status: [a-z ]+, .*items\[0\]\.name: /);
  });
});
