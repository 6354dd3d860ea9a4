import type { ProductRecord, PurchaseRecord } from '../../core/index.js';
import { productRequestSchema, type ProductContract } from '../../marketplace/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { customerProductListSchema, customerProductSchema, customerPurchaseSchema, customerRunRequestSchema, customerUsageSchema, sellerProductSchema, type CustomerProduct, type CustomerPurchase, type SellerProduct } from '../../contract/index.js';
import { newRecordOwner } from './owned-records.js';

/** The customer's view of a product, field by field: its contract, never its implementation. */
function customerProduct({ product, form }: ProductContract): CustomerProduct {
  return {
    product: product.name,
    description: product.description,
    price: { amount_minor: product.priceMinor, currency: product.currency },
    inputs_schema: form,
    output:
      product.outputFields.length === 0
        ? { type: 'text', fields: [], description: 'The product\'s answer, as text.' }
        : { type: 'object', fields: [...product.outputFields], description: `A JSON object with ${product.outputFields.join(', ')}.` },
  };
}

const MESSAGES: Readonly<Record<PurchaseRecord['status'], string | null>> = {
  running: null,
  completed: null,
  failed: 'The product could not produce a result this time; nothing was charged.',
  refused: 'The product could not be sure of its result for these inputs, so it stopped before acting; nothing was charged.',
};

/** The customer's view of one of their runs. The failure's cause stays with the seller: it would describe the implementation. */
function customerPurchase(purchase: PurchaseRecord, productName: string): CustomerPurchase {
  return {
    purchase_id: purchase.id,
    product: productName,
    status: purchase.status,
    result: purchase.status === 'completed' ? purchase.answer : null,
    message: MESSAGES[purchase.status],
    charged: { amount_minor: purchase.priceMinor, currency: purchase.currency },
    created_at: purchase.createdAt,
    finished_at: purchase.finishedAt,
    poll_url: `/api/v1/marketplace/purchases/${purchase.id}`,
  };
}

async function sellerProduct(context: RouteContext, { product, form }: { product: ProductRecord; form: ProductContract['form'] }): Promise<SellerProduct> {
  const skill = await context.runtime.skills.raw(product.skillId);
  return {
    product: product.name,
    description: product.description,
    skill: skill.name,
    skill_version: product.skillVersion,
    price: { amount_minor: product.priceMinor, currency: product.currency },
    output_fields: [...product.outputFields],
    published: product.published,
    inputs_schema: form,
    created_at: product.createdAt,
    updated_at: product.updatedAt,
  };
}

/** Who a customer is in the ledger: their account, or the operator of a server without accounts. */
function customerId(context: RouteContext): string {
  return context.principal?.userId ?? 'operator';
}

/** Sellers package skills as products; customers list them, run them and read their results and usage. */
export const marketplaceRoutes: readonly ApiRoute[] = [
  {
    method: 'post',
    path: '/marketplace/products',
    summary: 'Package one of your skills as a product (or republish one: the pin moves to the version named, default the current one).',
    access: 'marketplace:write',
    body: productRequestSchema,
    response: sellerProductSchema,
    status: 201,
    async handle(context) {
      const contract = await context.runtime.marketplace.publish(newRecordOwner(context), productRequestSchema.parse(context.body), context.owns);
      return sellerProduct(context, contract);
    },
  },
  {
    method: 'post',
    path: '/marketplace/products/:product/unpublish',
    summary: 'Take one of your products off the marketplace (customers no longer see or run it).',
    access: 'marketplace:write',
    response: sellerProductSchema,
    async handle(context) {
      return sellerProduct(context, await context.runtime.marketplace.unpublish(context.params['product']!, context.owns));
    },
  },
  {
    method: 'get',
    path: '/marketplace/products',
    summary: 'Published products: each one\'s contract (description, price, input form, output).',
    access: 'marketplace:read',
    response: customerProductListSchema,
    handle: async ({ runtime }) => ({ products: (await runtime.marketplace.listPublished()).map(customerProduct) }),
  },
  {
    method: 'get',
    path: '/marketplace/products/:product',
    summary: 'A published product\'s contract.',
    access: 'marketplace:read',
    response: customerProductSchema,
    handle: async ({ runtime, params }) => customerProduct(await runtime.marketplace.contract(params['product']!)),
  },
  {
    method: 'post',
    path: '/marketplace/products/:product/runs',
    summary: 'Run a product with inputs that fit its form; poll the result at poll_url. Charged only when it completes.',
    access: 'marketplace:run',
    body: customerRunRequestSchema,
    response: customerPurchaseSchema,
    status: 202,
    async handle(context) {
      const body = customerRunRequestSchema.parse(context.body ?? {});
      const name = context.params['product']!;
      const purchase = await context.runtime.marketplace.buy(customerId(context), name, body.inputs);
      return customerPurchase(purchase, name);
    },
  },
  {
    method: 'get',
    path: '/marketplace/purchases/:purchase_id',
    summary: 'One of your product runs: its status, and its result once completed.',
    access: 'marketplace:read',
    response: customerPurchaseSchema,
    async handle(context) {
      const { purchase, productName } = await context.runtime.marketplace.purchase(customerId(context), context.params['purchase_id']!);
      return customerPurchase(purchase, productName);
    },
  },
  {
    method: 'get',
    path: '/marketplace/usage',
    summary: 'Your product runs, newest first, with what each was charged and the totals per currency.',
    access: 'marketplace:read',
    response: customerUsageSchema,
    async handle(context) {
      const entries = await context.runtime.marketplace.usage(customerId(context));
      const totals = new Map<string, { charged_minor: number; runs: number }>();
      for (const { purchase } of entries) {
        const total = totals.get(purchase.currency) ?? { charged_minor: 0, runs: 0 };
        totals.set(purchase.currency, { charged_minor: total.charged_minor + purchase.priceMinor, runs: total.runs + 1 });
      }
      return { purchases: entries.map(({ purchase, productName }) => customerPurchase(purchase, productName)), totals: [...totals].map(([currency, total]) => ({ currency, ...total })) };
    },
  },
];
