import { dumpsPythonJson } from './python-json.js';
import { PythonError, pythonAbs, pythonAdd, pythonSubtract, type PythonNumber } from './python-number.js';
import { pythonRound } from './python-round.js';
import { comparePythonStrings, reprPythonString } from './python-string.js';
import type { RetailAddress, RetailData, RetailOrder, RetailPayment, RetailPaymentMethod } from './retail-data.js';
import { defineRetailTool, orderIdParameter } from './retail-tool-definition.js';

const paymentMethodIdParameter = {
  type: 'string',
  description:
    "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.",
} as const;

function addressParameters(stateDescription: string) {
  return {
    address1: { type: 'string', description: "The first line of the address, such as '123 Main St'." },
    address2: { type: 'string', description: "The second line of the address, such as 'Apt 1' or ''." },
    city: { type: 'string', description: "The city, such as 'San Francisco'." },
    state: { type: 'string', description: stateDescription },
    country: { type: 'string', description: "The country, such as 'USA'." },
    zip: { type: 'string', description: "The zip code, such as '12345'." },
  } as const;
}

const cancelReasons: readonly string[] = ['no longer needed', 'ordered by mistake'];

export const cancelPendingOrder = defineRetailTool({
  name: 'cancel_pending_order',
  description:
    "Cancel a pending order. If the order is already processed or delivered, it cannot be cancelled. The agent needs to explain the cancellation detail and ask for explicit user confirmation (yes/no) to proceed. If the user confirms, the order status will be changed to 'cancelled' and the payment will be refunded. The refund will be added to the user's gift card balance immediately if the payment was made using a gift card, otherwise the refund would take 5-7 business days to process. The function returns the order details after the cancellation.",
  properties: {
    order_id: orderIdParameter,
    reason: {
      type: 'string',
      enum: ['no longer needed', 'ordered by mistake'],
      description: "The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'.",
    },
  },
  writes: true,
  run(data, { order_id, reason }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'pending') return 'Error: non-pending order cannot be cancelled';
    if (!cancelReasons.includes(reason)) return 'Error: invalid reason';
    const refunds = order.payment_history.map((payment) => ({ transaction_type: 'refund' as const, amount: payment.amount, payment_method_id: payment.payment_method_id }));
    for (const payment of order.payment_history) {
      // A gift card is refunded at once; other methods take days, so only the order records it.
      if (payment.payment_method_id.includes('gift_card')) creditGiftCard(paymentMethodOf(data, order, payment.payment_method_id), payment.amount);
    }
    order.status = 'cancelled';
    order.cancel_reason = reason;
    order.payment_history.push(...refunds);
    return dumpsPythonJson(order);
  },
});

export const exchangeDeliveredOrderItems = defineRetailTool({
  name: 'exchange_delivered_order_items',
  description:
    'Exchange items in a delivered order to new items of the same product type. For a delivered order, return or exchange can be only done once by the agent. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
  properties: {
    order_id: orderIdParameter,
    item_ids: { type: 'array', items: { type: 'string' }, description: "The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list." },
    new_item_ids: {
      type: 'array',
      items: { type: 'string' },
      description: "The item ids to be exchanged for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
    },
    payment_method_id: paymentMethodIdParameter,
  },
  writes: true,
  run(data, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'delivered') return 'Error: non-delivered order cannot be exchanged';
    const swap = priceDifference(data, order, item_ids, new_item_ids);
    if (typeof swap === 'string') return swap;
    const difference = pythonRound(swap, 2);
    const paymentMethod = lookupPaymentMethod(data, order, payment_method_id);
    if (paymentMethod === undefined) return 'Error: payment method not found';
    if (paymentMethod.source === 'gift_card' && paymentMethod.balance < difference) return 'Error: insufficient gift card balance to pay for the price difference';
    order.status = 'exchange requested';
    order.exchange_items = pythonSorted(item_ids);
    order.exchange_new_items = pythonSorted(new_item_ids);
    order.exchange_payment_method_id = payment_method_id;
    order.exchange_price_difference = difference;
    return dumpsPythonJson(order);
  },
});

export const modifyPendingOrderAddress = defineRetailTool({
  name: 'modify_pending_order_address',
  description:
    'Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
  properties: { order_id: orderIdParameter, ...addressParameters("The province, such as 'CA'.") },
  writes: true,
  run(data, { order_id, ...address }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'pending') return 'Error: non-pending order cannot be modified';
    order.address = addressInToolOrder(address);
    return dumpsPythonJson(order);
  },
});

export const modifyPendingOrderItems = defineRetailTool({
  name: 'modify_pending_order_items',
  description:
    'Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
  properties: {
    order_id: orderIdParameter,
    item_ids: { type: 'array', items: { type: 'string' }, description: "The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list." },
    new_item_ids: {
      type: 'array',
      items: { type: 'string' },
      description: "The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
    },
    payment_method_id: paymentMethodIdParameter,
  },
  writes: true,
  run(data, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'pending') return 'Error: non-pending order cannot be modified';
    const difference = priceDifference(data, order, item_ids, new_item_ids);
    if (typeof difference === 'string') return difference;
    const paymentMethod = lookupPaymentMethod(data, order, payment_method_id);
    if (paymentMethod === undefined) return 'Error: payment method not found';
    if (paymentMethod.source === 'gift_card' && paymentMethod.balance < difference) return 'Error: insufficient gift card balance to pay for the new item';
    order.payment_history.push({ transaction_type: difference > 0 ? 'payment' : 'refund', amount: pythonAbs(difference), payment_method_id });
    if (paymentMethod.source === 'gift_card') paymentMethod.balance = pythonRound(pythonSubtract(paymentMethod.balance, difference), 2);
    item_ids.forEach((itemId, index) => {
      const item = order.items.find((candidate) => candidate.item_id === itemId)!;
      const variant = lookup(lookup(data.products, item.product_id).variants, new_item_ids[index]!);
      item.item_id = new_item_ids[index]!;
      item.price = variant.price;
      // The item shares the variant's options object, as in τ-bench; nothing writes either afterwards.
      item.options = variant.options;
    });
    order.status = 'pending (item modified)';
    return dumpsPythonJson(order);
  },
});

export const modifyPendingOrderPayment = defineRetailTool({
  name: 'modify_pending_order_payment',
  description:
    'Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
  properties: { order_id: orderIdParameter, payment_method_id: paymentMethodIdParameter },
  writes: true,
  run(data, { order_id, payment_method_id }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'pending') return 'Error: non-pending order cannot be modified';
    const paymentMethod = lookupPaymentMethod(data, order, payment_method_id);
    if (paymentMethod === undefined) return 'Error: payment method not found';
    const original = firstPayment(order);
    if (order.payment_history.length > 1 || original.transaction_type !== 'payment') return 'Error: there should be exactly one payment for a pending order';
    if (original.payment_method_id === payment_method_id) return 'Error: the new payment method should be different from the current one';
    const amount = original.amount;
    if (paymentMethod.source === 'gift_card' && paymentMethod.balance < amount) return 'Error: insufficient gift card balance to pay for the order';
    order.payment_history.push({ transaction_type: 'payment', amount, payment_method_id }, { transaction_type: 'refund', amount, payment_method_id: original.payment_method_id });
    if (paymentMethod.source === 'gift_card') paymentMethod.balance = pythonRound(pythonSubtract(paymentMethod.balance, amount), 2);
    if (original.payment_method_id.includes('gift_card')) creditGiftCard(paymentMethodOf(data, order, original.payment_method_id), amount);
    return dumpsPythonJson(order);
  },
});

export const modifyUserAddress = defineRetailTool({
  name: 'modify_user_address',
  description:
    'Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
  properties: { user_id: { type: 'string', description: "The user id, such as 'sara_doe_496'." }, ...addressParameters("The state, such as 'CA'.") },
  writes: true,
  run(data, { user_id, ...address }) {
    const user = data.users.get(user_id);
    if (user === undefined) return 'Error: user not found';
    user.address = addressInToolOrder(address);
    return dumpsPythonJson(user);
  },
});

export const returnDeliveredOrderItems = defineRetailTool({
  name: 'return_delivered_order_items',
  description:
    "Return some items of a delivered order. The order status will be changed to 'return requested'. The agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed. The user will receive follow-up email for how and where to return the item.",
  properties: {
    order_id: orderIdParameter,
    item_ids: { type: 'array', items: { type: 'string' }, description: "The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list." },
    payment_method_id: paymentMethodIdParameter,
  },
  writes: true,
  run(data, { order_id, item_ids, payment_method_id }) {
    const order = data.orders.get(order_id);
    if (order === undefined) return 'Error: order not found';
    if (order.status !== 'delivered') return 'Error: non-delivered order cannot be returned';
    if (lookupPaymentMethod(data, order, payment_method_id) === undefined) return 'Error: payment method not found';
    if (!payment_method_id.includes('gift_card') && payment_method_id !== firstPayment(order).payment_method_id) {
      return 'Error: payment method should be either the original payment method or a gift card';
    }
    if (missingItem(order, item_ids) !== undefined) return 'Error: some item not found';
    order.status = 'return requested';
    order.return_items = pythonSorted(item_ids);
    order.return_payment_method_id = payment_method_id;
    return dumpsPythonJson(order);
  },
});

/** The first id asked for more often than the order holds it, if any (lists may repeat an id). */
function missingItem(order: RetailOrder, itemIds: readonly string[]): string | undefined {
  const held = order.items.map((item) => item.item_id);
  const count = (list: readonly string[], id: string) => list.filter((candidate) => candidate === id).length;
  return itemIds.find((id) => count(itemIds, id) > count(held, id));
}

/**
 * The checks an item swap shares (exchange and modify): every old item in the order, as many new
 * ids as old ones, each new id an available variant of the old item's product. Returns the error
 * string of the first failed check, or the summed price difference (new minus old), unrounded; it
 * starts from the int 0, as in Python, so an empty swap stays an int.
 */
function priceDifference(data: RetailData, order: RetailOrder, itemIds: readonly string[], newItemIds: readonly string[]): PythonNumber | string {
  const missing = missingItem(order, itemIds);
  if (missing !== undefined) return `Error: ${missing} not found`;
  if (itemIds.length !== newItemIds.length) return 'Error: the number of items to be exchanged should match';
  let difference: PythonNumber = 0n;
  for (const [index, itemId] of itemIds.entries()) {
    const newItemId = newItemIds[index]!;
    const item = order.items.find((candidate) => candidate.item_id === itemId)!;
    const variant = lookup(data.products, item.product_id).variants.get(newItemId);
    if (variant === undefined || !variant.available) return `Error: new item ${newItemId} not found or available`;
    difference = pythonAdd(difference, pythonSubtract(variant.price, item.price));
  }
  return difference;
}

/** The order's user's payment method `id`, if the user has it. */
function lookupPaymentMethod(data: RetailData, order: RetailOrder, id: string): RetailPaymentMethod | undefined {
  return lookup(data.users, order.user_id).payment_methods.get(id);
}

/** `users[order.user_id].payment_methods[id]`, raising Python's KeyError when it is not there. */
function paymentMethodOf(data: RetailData, order: RetailOrder, id: string): RetailPaymentMethod {
  return lookup(lookup(data.users, order.user_id).payment_methods, id);
}

/** Adds `amount` to a gift card's balance, rounded to cents as τ-bench does; any other method has no balance (KeyError). */
function creditGiftCard(paymentMethod: RetailPaymentMethod, amount: PythonNumber): void {
  if (paymentMethod.source !== 'gift_card') throw keyError('balance');
  paymentMethod.balance = pythonRound(pythonAdd(paymentMethod.balance, amount), 2);
}

function firstPayment(order: RetailOrder): RetailPayment {
  const payment = order.payment_history[0];
  if (payment === undefined) throw new PythonError('IndexError', 'list index out of range');
  return payment;
}

/** `map[key]` with Python's KeyError (`'key'`) instead of undefined. */
function lookup<T>(map: ReadonlyMap<string, T>, key: string): T {
  const value = map.get(key);
  if (value === undefined) throw keyError(key);
  return value;
}

function keyError(key: string): PythonError {
  return new PythonError('KeyError', reprPythonString(key));
}

/** The address dict as the tools write it: `state` before `country`, unlike the data files. */
function addressInToolOrder(address: RetailAddress): RetailAddress {
  return { address1: address.address1, address2: address.address2, city: address.city, state: address.state, country: address.country, zip: address.zip };
}

function pythonSorted(values: readonly string[]): string[] {
  return [...values].sort(comparePythonStrings);
}
