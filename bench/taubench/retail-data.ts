import { readFileSync } from 'node:fs';
import { parsePythonJson, type PythonValue } from './python-json.js';
import type { PythonNumber } from './python-number.js';

/**
 * τ-bench's retail database (`users.json`, `orders.json`, `products.json`, see `data/README.md`), in the
 * shape its Python tools see. Tables and other dicts keyed by id (a user's payment methods, a
 * product's variants) are Maps, because a JavaScript object would reorder integer-like keys such as
 * item ids and Python keeps insertion order, which shows in every `json.dumps` result. Records with
 * fixed field names are plain objects in their file order. Numbers keep Python's int/float split
 * (`PythonNumber`): gift-card balances start as ints, prices and amounts are floats.
 */
export interface RetailData {
  readonly orders: Map<string, RetailOrder>;
  readonly products: Map<string, RetailProduct>;
  readonly users: Map<string, RetailUser>;
}

export interface RetailAddress {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

export interface RetailUser {
  name: { first_name: string; last_name: string };
  address: RetailAddress;
  email: string;
  payment_methods: Map<string, RetailPaymentMethod>;
  orders: string[];
}

export type RetailPaymentMethod =
  | { source: 'credit_card'; brand: string; last_four: string; id: string }
  | { source: 'gift_card'; balance: PythonNumber; id: string }
  | { source: 'paypal'; id: string };

export interface RetailOrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: PythonNumber;
  options: Record<string, string>;
}

export interface RetailPayment {
  transaction_type: 'payment' | 'refund';
  amount: PythonNumber;
  payment_method_id: string;
}

/** An order; the optional fields are the ones τ-bench's write tools add. */
export interface RetailOrder {
  order_id: string;
  user_id: string;
  address: RetailAddress;
  items: RetailOrderItem[];
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  status: string;
  payment_history: RetailPayment[];
  cancel_reason?: string;
  exchange_items?: string[];
  exchange_new_items?: string[];
  exchange_payment_method_id?: string;
  exchange_price_difference?: PythonNumber;
  return_items?: string[];
  return_payment_method_id?: string;
}

export interface RetailProduct {
  name: string;
  product_id: string;
  variants: Map<string, RetailVariant>;
}

export interface RetailVariant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: PythonNumber;
}

let pristine: RetailData | undefined;

/**
 * A fresh deep copy of the retail database, like τ-bench's `load_data()`: the files are parsed once per
 * process and every call clones that, so no caller's writes reach another's copy.
 */
export function loadRetailData(): RetailData {
  pristine ??= { orders: readTable('orders'), products: readTable('products'), users: readTable('users') } as unknown as RetailData;
  return structuredClone(pristine);
}

function readTable(name: 'orders' | 'products' | 'users'): unknown {
  return fromPythonDicts(parsePythonJson(readFileSync(new URL(`./data/retail/${name}.json`, import.meta.url), 'utf8')), true);
}

/** Fields whose dict is keyed by id. The tables themselves are too. */
const idKeyedFields: ReadonlySet<string> = new Set(['payment_methods', 'variants']);

function fromPythonDicts(value: PythonValue, keyedById: boolean): unknown {
  if (Array.isArray(value)) return value.map((element) => fromPythonDicts(element, false));
  if (!(value instanceof Map)) return value;
  const entries = [...value].map(([key, entry]) => [key, fromPythonDicts(entry, idKeyedFields.has(key))] as const);
  return keyedById ? new Map(entries) : Object.fromEntries(entries);
}
