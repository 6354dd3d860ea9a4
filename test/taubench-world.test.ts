import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RETAIL_TOOLS,
  groupTasksBySequence,
  invokeRetailTool,
  loadRetailData,
  loadRetailTasks,
  pythonRound,
  retailDataHash,
  startRetailMcpServer,
  type RetailData,
  type RetailMcpServer,
  type RetailPaymentMethod,
} from '../bench/taubench/index.js';

// Digests computed by τ-bench's own `consistent_hash(to_hashable(data))` in Python 3.11 over the same files.
const pythonHashes = {
  fresh: '5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5',
  task0: '5ed21c65cf9e8d0c20ad0210721146bb6abad19bedce7c2e08472311dabbeec8',
  task2: '047522a8ae2c144d87970f3579fc39a81e72056269b5f0d647b9e3918b53f448',
  cancelGiftCardOrder: '1959acc05a67f04e9eef8448167b5bc731dc14e7243331f215647a42c38f7e28',
  modifyItemsOntoGiftCard: 'fe9e70acdf72486d02ad63957eac0b58488016833458826c0f78755f55b11265',
  exchangeTwoItems: 'd25a42c6c07c20e9af26991299789a58b7cc08ec1a7cc1768ed66e1c241032e1',
};

function giftCard(data: RetailData, userId: string, id: string): Extract<RetailPaymentMethod, { source: 'gift_card' }> {
  const method = data.users.get(userId)?.payment_methods.get(id);
  if (method?.source !== 'gift_card') throw new Error(`${id} is not a gift card of ${userId}`);
  return method;
}

function calculate(expression: string): string {
  return invokeRetailTool(loadRetailData(), 'calculate', { expression });
}

describe('pythonRound', () => {
  it('rounds the exact binary value half to even, as CPython does', () => {
    expect(pythonRound(0.125, 2)).toBe(0.12);
    expect(pythonRound(0.375, 2)).toBe(0.38);
    expect(pythonRound(2.675, 2)).toBe(2.67);
    expect(pythonRound(0.015, 2)).toBe(0.01);
    expect(pythonRound(1.005, 2)).toBe(1);
    expect(pythonRound(4128.449999999999, 2)).toBe(4128.45);
    expect(Object.is(pythonRound(-0.001, 2), -0)).toBe(true);
  });

  it('leaves ints (bigints) and non-finite floats alone', () => {
    expect(pythonRound(49n, 2)).toBe(49n);
    expect(pythonRound(Infinity, 2)).toBe(Infinity);
  });
});

describe('calculate', () => {
  it("answers str(round(float(value), 2)) like Python's eval", () => {
    expect(calculate('2 + 2')).toBe('4.0');
    expect(calculate('0 - 17.99')).toBe('-17.99');
    expect(calculate('199.99 - 149.99')).toBe('50.0');
    expect(calculate('(100 - 20) * 0.9')).toBe('72.0');
    expect(calculate('0.125')).toBe('0.12');
    expect(calculate('2.675')).toBe('2.67');
    expect(calculate('-2**2')).toBe('-4.0');
    expect(calculate('2**-1')).toBe('0.5');
    expect(calculate('2 ** 100')).toBe('1.2676506002282294e+30');
    expect(calculate('7 // 2')).toBe('3.0');
    expect(calculate('-7 // 2')).toBe('-4.0');
    expect(calculate('-7.5 // 2')).toBe('-4.0');
    expect(calculate('.5 + 5.')).toBe('5.5');
  });

  it("gives Python's errors", () => {
    expect(calculate('1 / 0')).toBe('Error: division by zero');
    expect(calculate('1.0 / 0')).toBe('Error: float division by zero');
    expect(calculate('1 // 0')).toBe('Error: integer division or modulo by zero');
    expect(calculate('1e5')).toBe('Error: invalid characters in expression');
    expect(calculate('2 + x')).toBe('Error: invalid characters in expression');
    expect(calculate('(1 + 2')).toBe("Error: '(' was never closed (<string>, line 1)");
    expect(calculate('1 + 2)')).toBe("Error: unmatched ')' (<string>, line 1)");
    expect(calculate('1 +')).toBe('Error: invalid syntax (<string>, line 1)');
    expect(calculate('')).toBe('Error: invalid syntax (<string>, line 0)');
    expect(calculate('007')).toBe('Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)');
    expect(calculate('(-8) ** 0.5')).toBe("Error: float() argument must be a string or a real number, not 'complex'");
    expect(calculate('10 ** 400')).toBe('Error: int too large to convert to float');
    expect(calculate('(2)(3)')).toBe("Error: 'int' object is not callable");
  });
});

describe('the write tools on the retail data', () => {
  it('cancels a pending order and refunds a gift card at once, turning its int balance into a float', () => {
    const data = loadRetailData();
    expect(giftCard(data, 'ethan_lopez_6291', 'gift_card_7219486').balance).toBe(49n);
    expect(invokeRetailTool(data, 'get_user_details', { user_id: 'ethan_lopez_6291' })).toContain('"gift_card_7219486": {"source": "gift_card", "balance": 49, "id": "gift_card_7219486"}');

    const result = invokeRetailTool(data, 'cancel_pending_order', { order_id: '#W6779827', reason: 'no longer needed' });

    expect(result.endsWith('"status": "cancelled", "payment_history": [{"transaction_type": "payment", "amount": 4079.45, "payment_method_id": "gift_card_7219486"}, {"transaction_type": "refund", "amount": 4079.45, "payment_method_id": "gift_card_7219486"}], "cancel_reason": "no longer needed"}')).toBe(true);
    expect(giftCard(data, 'ethan_lopez_6291', 'gift_card_7219486').balance).toBe(4128.45);
    expect(retailDataHash(data)).toBe(pythonHashes.cancelGiftCardOrder);
  });

  it('refuses to cancel what is not pending, or for another reason', () => {
    const data = loadRetailData();
    expect(invokeRetailTool(data, 'cancel_pending_order', { order_id: '#W2611340', reason: 'no longer needed' })).toBe('Error: non-pending order cannot be cancelled');
    expect(invokeRetailTool(data, 'cancel_pending_order', { order_id: '#W6779827', reason: 'changed my mind' })).toBe('Error: invalid reason');
    expect(invokeRetailTool(data, 'cancel_pending_order', { order_id: 'W6779827', reason: 'no longer needed' })).toBe('Error: order not found');
    expect(retailDataHash(data)).toBe(pythonHashes.fresh);
  });

  it('modifies pending items onto a gift card: the unrounded difference in the history, the balance rounded', () => {
    const data = loadRetailData();
    const args = { order_id: '#W8367380', item_ids: ['2444431651'], new_item_ids: ['8068777068'], payment_method_id: 'gift_card_1994993' };

    const result = invokeRetailTool(data, 'modify_pending_order_items', args);

    expect(result).toContain('{"transaction_type": "refund", "amount": 27.710000000000036, "payment_method_id": "gift_card_1994993"}');
    expect(giftCard(data, 'ava_nguyen_6646', 'gift_card_1994993').balance).toBe(105.71);
    const order = data.orders.get('#W8367380')!;
    expect(order.status).toBe('pending (item modified)');
    expect(order.items[0]).toMatchObject({ item_id: '8068777068', price: 507.13 });
    expect(retailDataHash(data)).toBe(pythonHashes.modifyItemsOntoGiftCard);
    expect(invokeRetailTool(data, 'modify_pending_order_items', args)).toBe('Error: non-pending order cannot be modified');
  });

  it('checks item swaps before it writes anything', () => {
    const data = loadRetailData();
    const modify = (changes: Record<string, unknown>) =>
      invokeRetailTool(data, 'modify_pending_order_items', { order_id: '#W8367380', item_ids: ['2444431651'], new_item_ids: ['8068777068'], payment_method_id: 'credit_card_5683823', ...changes });
    expect(modify({ new_item_ids: ['8068777068', '3333391894'] })).toBe('Error: the number of items to be exchanged should match');
    expect(modify({ item_ids: ['2444431651', '2444431651'], new_item_ids: ['8068777068', '3333391894'] })).toBe('Error: 2444431651 not found');
    expect(modify({ item_ids: ['1008292230'] })).toBe('Error: 1008292230 not found');
    expect(modify({ new_item_ids: ['8140269513'] })).toBe('Error: new item 8140269513 not found or available');
    expect(modify({ payment_method_id: 'paypal_0000000' })).toBe('Error: payment method not found');
    const costlier = { order_id: '#W6779827', item_ids: ['7896397433'], new_item_ids: ['2444431651'], payment_method_id: 'gift_card_7219486' };
    expect(invokeRetailTool(data, 'modify_pending_order_items', costlier)).toBe('Error: insufficient gift card balance to pay for the new item');
    expect(retailDataHash(data)).toBe(pythonHashes.fresh);
  });

  it('moves a pending payment to a gift card, and refuses the same method, a stranger’s method and a short gift card', () => {
    const data = loadRetailData();
    expect(invokeRetailTool(data, 'modify_pending_order_payment', { order_id: '#W8367380', payment_method_id: 'credit_card_5683823' })).toBe('Error: the new payment method should be different from the current one');
    expect(invokeRetailTool(data, 'modify_pending_order_payment', { order_id: '#W8367380', payment_method_id: 'gift_card_7219486' })).toBe('Error: payment method not found');
    expect(invokeRetailTool(data, 'modify_pending_order_payment', { order_id: '#W8367380', payment_method_id: 'gift_card_1994993' })).toBe('Error: insufficient gift card balance to pay for the order');
    expect(retailDataHash(data)).toBe(pythonHashes.fresh);

    const result = invokeRetailTool(data, 'modify_pending_order_payment', { order_id: '#W1080318', payment_method_id: 'gift_card_3749819' });

    expect(result.endsWith('"payment_history": [{"transaction_type": "payment", "amount": 53.43, "payment_method_id": "credit_card_3577130"}, {"transaction_type": "payment", "amount": 53.43, "payment_method_id": "gift_card_3749819"}, {"transaction_type": "refund", "amount": 53.43, "payment_method_id": "credit_card_3577130"}]}')).toBe(true);
    const userId = data.orders.get('#W1080318')!.user_id;
    expect(giftCard(data, userId, 'gift_card_3749819').balance).toBe(37.57);
  });

  it('exchanges delivered items: sorted id lists and the rounded price difference', () => {
    const data = loadRetailData();
    expect(invokeRetailTool(data, 'exchange_delivered_order_items', { order_id: '#W8367380', item_ids: [], new_item_ids: [], payment_method_id: 'credit_card_5683823' })).toBe('Error: non-delivered order cannot be exchanged');
    expect(invokeRetailTool(data, 'exchange_delivered_order_items', { order_id: '#W4250821', item_ids: ['5222576926'], new_item_ids: ['7706410293'], payment_method_id: 'gift_card_6052478' })).toBe(
      'Error: insufficient gift card balance to pay for the price difference',
    );

    const result = invokeRetailTool(data, 'exchange_delivered_order_items', { order_id: '#W4250821', item_ids: ['5222576926', '6857426243'], new_item_ids: ['7706410293', '6857426243'], payment_method_id: 'credit_card_8041020' });

    expect(result.endsWith('"exchange_items": ["5222576926", "6857426243"], "exchange_new_items": ["6857426243", "7706410293"], "exchange_payment_method_id": "credit_card_8041020", "exchange_price_difference": 19.21}')).toBe(true);
    expect(retailDataHash(data)).toBe(pythonHashes.exchangeTwoItems);
  });

  it('returns delivered items to the original method or a gift card only', () => {
    const data = loadRetailData();
    const returnItems = (itemIds: string[], paymentMethodId: string) => invokeRetailTool(data, 'return_delivered_order_items', { order_id: '#W4250821', item_ids: itemIds, payment_method_id: paymentMethodId });
    expect(returnItems(['5222576926'], 'credit_card_6547060')).toBe('Error: payment method should be either the original payment method or a gift card');
    expect(returnItems(['5222576926', '5222576926'], 'gift_card_6052478')).toBe('Error: some item not found');
    expect(returnItems(['5222576926'], 'credit_card_0000000')).toBe('Error: payment method not found');
    expect(invokeRetailTool(data, 'return_delivered_order_items', { order_id: '#W8367380', item_ids: ['2444431651'], payment_method_id: 'credit_card_5683823' })).toBe('Error: non-delivered order cannot be returned');

    expect(returnItems(['9970989750', '5222576926'], 'gift_card_6052478').endsWith('"return_items": ["5222576926", "9970989750"], "return_payment_method_id": "gift_card_6052478"}')).toBe(true);
    expect(data.orders.get('#W4250821')!.status).toBe('return requested');
  });

  it("writes addresses in the tools' key order (state before country), for pending orders and known users only", () => {
    const data = loadRetailData();
    const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    expect(invokeRetailTool(data, 'modify_pending_order_address', { order_id: '#W2611340', ...address })).toBe('Error: non-pending order cannot be modified');
    expect(invokeRetailTool(data, 'modify_pending_order_address', { order_id: '#W8367380', ...address })).toContain(
      '"address": {"address1": "1 Main St", "address2": "", "city": "Austin", "state": "TX", "country": "USA", "zip": "78701"}, "items"',
    );
    expect(invokeRetailTool(data, 'modify_user_address', { user_id: 'nobody_0000', ...address })).toBe('Error: user not found');
    expect(JSON.parse(invokeRetailTool(data, 'modify_user_address', { user_id: 'ava_nguyen_6646', ...address })).address).toEqual(address);
  });

  it("binds arguments like Python's call and reports unknown tools like env.step", () => {
    const data = loadRetailData();
    expect(invokeRetailTool(data, 'cancel_pending_order', { order_id: '#W6779827' })).toBe("Error: CancelPendingOrder.invoke() missing 1 required positional argument: 'reason'");
    expect(invokeRetailTool(data, 'modify_pending_order_payment', {})).toBe("Error: ModifyPendingOrderPayment.invoke() missing 2 required positional arguments: 'order_id' and 'payment_method_id'");
    expect(invokeRetailTool(data, 'get_order_details', { order_id: '#W6779827', verbose: true })).toBe("Error: GetOrderDetails.invoke() got an unexpected keyword argument 'verbose'");
    expect(invokeRetailTool(data, 'refund_everything', {})).toBe('Unknown action refund_everything');
    expect(retailDataHash(data)).toBe(pythonHashes.fresh);
  });
});

describe('results as Python prints them', () => {
  it("keeps json.dumps separators, file key order (integer-like item ids included) and floats' .0", () => {
    const data = loadRetailData();
    expect(invokeRetailTool(data, 'get_order_details', { order_id: '#W3113816' })).toContain('"item_id": "6243148452", "price": 247.0, "options"');
    const product = invokeRetailTool(data, 'get_product_details', { product_id: '9523456873' });
    const fileOrder = [...readFileSync(new URL('../bench/taubench/data/retail/products.json', import.meta.url), 'utf8').split('"9523456873": {')[1]!.split('\n    },\n')[0]!.matchAll(/"item_id": "(\d+)"/g)].map((match) => match[1]);
    expect([...product.matchAll(/"item_id": "(\d+)"/g)].map((match) => match[1])).toEqual(fileOrder);
    expect(fileOrder.findIndex((id) => Number(id) < 2 ** 32)).toBeGreaterThan(0);
    expect(invokeRetailTool(data, 'list_all_product_types', {}).startsWith('{"Action Camera": "3377618313", "Air Purifier": "3821016478", ')).toBe(true);
  });
});

describe('retailDataHash', () => {
  it("equals τ-bench's Python digest, and a fresh copy hashes like any other", () => {
    const data = loadRetailData();
    expect(retailDataHash(data)).toBe(pythonHashes.fresh);
    for (const [name, kwargs] of [
      ['get_user_details', { user_id: 'ava_nguyen_6646' }],
      ['list_all_product_types', {}],
      ['calculate', { expression: '1 + 1' }],
    ] as const) {
      invokeRetailTool(data, name, kwargs);
    }
    expect(retailDataHash(data)).toBe(retailDataHash(loadRetailData()));
  });

  it('changes with any write', () => {
    const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
    const writes: [string, Record<string, unknown>][] = [
      ['cancel_pending_order', { order_id: '#W6779827', reason: 'ordered by mistake' }],
      ['modify_pending_order_address', { order_id: '#W8367380', ...address }],
      ['modify_user_address', { user_id: 'ava_nguyen_6646', ...address }],
      ['modify_pending_order_payment', { order_id: '#W1080318', payment_method_id: 'gift_card_3749819' }],
      ['return_delivered_order_items', { order_id: '#W4250821', item_ids: ['5222576926'], payment_method_id: 'credit_card_8041020' }],
    ];
    const hashes = writes.map(([name, kwargs]) => {
      const data = loadRetailData();
      expect(invokeRetailTool(data, name, kwargs)).not.toMatch(/^Error/);
      return retailDataHash(data);
    });
    expect(new Set([pythonHashes.fresh, ...hashes]).size).toBe(writes.length + 1);
  });

  it('gives the same digest for the same ground-truth actions on two fresh copies, equal to Python’s', () => {
    const tasks = loadRetailTasks();
    for (const [index, expected] of [
      [0, pythonHashes.task0],
      [2, pythonHashes.task2],
    ] as const) {
      const digests = [loadRetailData(), loadRetailData()].map((data) => {
        for (const action of tasks[index]!.actions) invokeRetailTool(data, action.name, action.kwargs);
        return retailDataHash(data);
      });
      expect(digests).toEqual([expected, expected]);
    }
  });

  it('does not depend on key order', () => {
    const data = loadRetailData();
    const reversed = (map: Map<string, unknown>) => new Map([...map].reverse());
    const order = data.orders.get('#W8367380')!;
    const shuffled: RetailData = {
      users: data.users,
      products: data.products,
      orders: reversed(data.orders).set('#W8367380', Object.fromEntries(Object.entries(order).reverse())) as RetailData['orders'],
    };
    expect(retailDataHash(shuffled)).toBe(pythonHashes.fresh);
  });
});

describe('the retail test tasks', () => {
  it('loads 115 validated tasks and groups them by ground-truth tool sequence', () => {
    const tasks = loadRetailTasks();
    expect(tasks.map((task) => task.index)).toEqual([...Array(115).keys()]);
    const groups = groupTasksBySequence(tasks);
    expect(groups).toHaveLength(74);
    expect(groups.filter((group) => group.tasks.length >= 2)).toHaveLength(22);
    expect(groups.flatMap((group) => group.tasks)).toHaveLength(115);
    expect(groups[0]!.sequence).toEqual(['find_user_id_by_name_zip', 'get_order_details', 'get_product_details', 'get_product_details', 'exchange_delivered_order_items']);
    expect(groups[0]!.tasks.map((task) => task.index).slice(0, 2)).toEqual([0, 1]);
    const firstIndexes = groups.map((group) => group.tasks[0]!.index);
    expect(firstIndexes).toEqual([...firstIndexes].sort((a, b) => a - b));
    for (const group of groups) for (const task of group.tasks) expect(task.actions.map((action) => action.name)).toEqual(group.sequence);
    expect(groups.filter((group) => group.sequence.length === 0)).toHaveLength(1);
  });
});

describe('the retail world over MCP', () => {
  let server: RetailMcpServer;
  let client: Client;

  beforeAll(async () => {
    server = await startRetailMcpServer();
    client = new Client({ name: 'taubench-world-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('serves on loopback and lists every tool with its τ-bench schema and side-effect annotations', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(RETAIL_TOOLS.map((tool) => tool.name));
    for (const tool of tools) {
      const definition = RETAIL_TOOLS.find((candidate) => candidate.name === tool.name)!;
      expect(tool.description).toBe(definition.description);
      expect(JSON.stringify(tool.inputSchema)).toBe(JSON.stringify(definition.parameters));
      expect(tool.annotations).toEqual(definition.writes ? { readOnlyHint: false, destructiveHint: true } : { readOnlyHint: true });
    }
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint === false).map((tool) => tool.name)).toEqual([
      'cancel_pending_order',
      'exchange_delivered_order_items',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
    ]);
  });

  it('answers reads and writes with the exact strings, marks errors, changes the live state and records every call', async () => {
    const read = await client.callTool({ name: 'get_order_details', arguments: { order_id: '#W6779827' } });
    expect(read).toEqual({ content: [{ type: 'text', text: invokeRetailTool(loadRetailData(), 'get_order_details', { order_id: '#W6779827' }) }] });

    const write = await client.callTool({ name: 'cancel_pending_order', arguments: { order_id: '#W6779827', reason: 'no longer needed' } });
    expect(write.isError).toBeUndefined();
    expect(server.data.orders.get('#W6779827')!.status).toBe('cancelled');
    expect(server.hash()).toBe(pythonHashes.cancelGiftCardOrder);

    const refused = await client.callTool({ name: 'cancel_pending_order', arguments: { order_id: '#W6779827', reason: 'no longer needed' } });
    expect(refused).toEqual({ content: [{ type: 'text', text: 'Error: non-pending order cannot be cancelled' }], isError: true });
    const unknown = await client.callTool({ name: 'refund_everything', arguments: {} });
    expect(unknown).toEqual({ content: [{ type: 'text', text: 'Unknown action refund_everything' }], isError: true });

    expect(server.calls.map(({ tool, arguments: args, isError }) => ({ tool, args, isError }))).toEqual([
      { tool: 'get_order_details', args: { order_id: '#W6779827' }, isError: false },
      { tool: 'cancel_pending_order', args: { order_id: '#W6779827', reason: 'no longer needed' }, isError: false },
      { tool: 'cancel_pending_order', args: { order_id: '#W6779827', reason: 'no longer needed' }, isError: true },
      { tool: 'refund_everything', args: {}, isError: true },
    ]);
    expect(server.calls[1]!.result).toBe((write.content as { text: string }[])[0]!.text);

    server.reset();
    expect(server.calls).toHaveLength(0);
    expect(server.hash()).toBe(pythonHashes.fresh);
    expect(server.data.orders.get('#W6779827')!.status).toBe('pending');
  });
});
