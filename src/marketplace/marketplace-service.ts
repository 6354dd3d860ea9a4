import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NotFoundError, type ProductRecord, type PurchaseRecord, type Store } from '../core/index.js';
import type { SkillService } from '../skills/skill-service.js';
import { assertSkillName, type SkillDocument, type SkillReplayResult } from '../skills/index.js';
import { MarketplacePermissionError } from './marketplace-errors.js';
import { checkFormInputs, productForm, type ProductForm } from './product-form.js';

export const productRequestSchema = z
  .object({
    skill: z.string().min(1).max(200).describe('The skill to package: its name, or name@version to pin an older one (default its current version).'),
    name: z.string().min(1).max(64).describe('The product\'s name (kebab-case, unique): what customers call it by.'),
    description: z.string().trim().min(1).max(2_000).describe('What it does, for customers.'),
    price_minor: z.number().int().nonnegative().max(100_000_000).describe('The price of one run in minor units (cents).'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'An ISO 4217 code in capitals, like EUR or USD.'),
    output_fields: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A top-level field name of the result.'))
      .max(50)
      .default([])
      .describe("The fields of the skill's final result a customer gets; nothing else of it leaves. Required when the result is an object."),
    published: z.boolean().default(true),
  })
  .strict();

export type ProductRequest = z.input<typeof productRequestSchema>;

/**
 * What a customer gets of a completed replay's answer: the product's output fields of a JSON object
 * (missing ones null), or, for a product without output fields, a text answer whole. An object answer
 * of a product without output fields is withheld: its fields were never chosen to leave.
 */
export function customerResult(answer: string | null, outputFields: readonly string[]): string | null {
  if (answer === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return outputFields.length === 0 ? answer : null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return outputFields.length === 0 && typeof parsed !== 'object' ? answer : null;
  if (outputFields.length === 0) return null;
  const record = parsed as Record<string, unknown>;
  return JSON.stringify(Object.fromEntries(outputFields.map((field) => [field, Object.hasOwn(record, field) ? record[field] : null])));
}

/** A product with what customers see of it. */
export interface ProductContract {
  readonly product: ProductRecord;
  readonly form: ProductForm;
}

export interface MarketplaceServiceParts {
  readonly store: Store;
  readonly skills: SkillService;
  /** Replays the pinned skill version as a run owned by the seller. */
  readonly replay: (options: { skill: string; inputs: Record<string, unknown>; userId: string | null }) => Promise<SkillReplayResult>;
}

/**
 * The skill marketplace: a seller packages a stored skill of theirs as a product pinned at one version
 * (republishing moves the pin), with a price and a customer input form generated from its variables;
 * customers list published products, read a product's contract, run it with inputs and read the result.
 * A customer run is a skill replay owned by the seller, so its trace stays with the seller; the ledger
 * row is all the customer has: status, result, price charged (only when it completed) and, for the
 * seller's accounts, the run's real model cost. No payment provider is involved.
 */
export class MarketplaceService {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly parts: MarketplaceServiceParts) {}

  /** Packages (or republishes) a product; `owns` says whether the caller owns a record of the given owner. */
  async publish(sellerId: string | null, request: ProductRequest, owns: (ownerId: string | null) => boolean): Promise<ProductContract> {
    const parsed = productRequestSchema.parse(request);
    assertSkillName(parsed.name);
    const { record, document } = await this.parts.skills.load(parsed.skill).catch(() => {
      throw new NotFoundError('skill', parsed.skill, 'List your skills with GET /api/v1/skills.');
    });
    if (!owns(record.userId)) throw new NotFoundError('skill', parsed.skill, 'List your skills with GET /api/v1/skills.');
    const existing = await this.parts.store.marketplace.getProduct(parsed.name);
    if (existing !== undefined && !owns(existing.sellerId)) throw new MarketplacePermissionError(`The product name "${parsed.name}" is taken.`, 'Choose another name.');
    const product = await this.parts.store.marketplace.upsertProduct({
      id: existing?.id ?? randomBytes(8).toString('hex'),
      name: parsed.name,
      sellerId: existing?.sellerId ?? sellerId,
      skillId: record.id,
      skillVersion: record.version,
      description: parsed.description,
      priceMinor: parsed.price_minor,
      currency: parsed.currency,
      outputFields: [...new Set(parsed.output_fields)],
      published: parsed.published,
    });
    return { product, form: productForm(document) };
  }

  async unpublish(name: string, owns: (ownerId: string | null) => boolean): Promise<ProductContract> {
    const product = await this.parts.store.marketplace.getProduct(name);
    if (product === undefined || !owns(product.sellerId)) throw new NotFoundError('product', name, 'List your products with GET /api/v1/marketplace/products.');
    const updated = (await this.parts.store.marketplace.setPublished(name, false))!;
    return { product: updated, form: productForm(await this.pinnedDocument(updated)) };
  }

  /** Published products with their forms, by name. */
  async listPublished(): Promise<ProductContract[]> {
    const products = await this.parts.store.marketplace.listProducts({ publishedOnly: true });
    const contracts: ProductContract[] = [];
    for (const product of products) {
      const document = await this.pinnedDocument(product).catch(() => undefined);
      if (document !== undefined) contracts.push({ product, form: productForm(document) });
    }
    return contracts;
  }

  /** A published product's contract; an unpublished or unknown one is not found. */
  async contract(name: string): Promise<ProductContract> {
    const product = await this.parts.store.marketplace.getProduct(name);
    if (product === undefined || !product.published) throw new NotFoundError('product', name, 'List the products with GET /api/v1/marketplace/products.');
    return { product, form: productForm(await this.pinnedDocument(product)) };
  }

  /**
   * Starts a customer run: checks the inputs against the form, writes the ledger row (running), and
   * replays the pinned version in the background; the row gets the outcome when it ends.
   */
  async buy(customerId: string, name: string, inputs: Readonly<Record<string, unknown>>): Promise<PurchaseRecord> {
    const { product, form } = await this.contract(name);
    checkFormInputs(form, inputs);
    const purchase = await this.parts.store.marketplace.createPurchase({ id: randomBytes(8).toString('hex'), productId: product.id, customerId, skillVersion: product.skillVersion, currency: product.currency });
    const skill = `${(await this.parts.skills.raw(product.skillId)).name}@${product.skillVersion}`;
    const running = this.parts
      .replay({ skill, inputs: { ...inputs }, userId: product.sellerId })
      .then(
        (result) =>
          this.parts.store.marketplace.finishPurchase(purchase.id, {
            runId: result.run_id,
            status: result.status === 'completed' ? 'completed' : result.status === 'refused' ? 'refused' : 'failed',
            answer: result.status === 'completed' ? customerResult(result.answer, product.outputFields) : null,
            costUsd: result.cost_usd,
            priceMinor: result.status === 'completed' ? product.priceMinor : 0,
          }),
        () => this.parts.store.marketplace.finishPurchase(purchase.id, { runId: null, status: 'failed', answer: null, costUsd: null, priceMinor: 0 }),
      )
      .catch(() => undefined)
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
    return purchase;
  }

  /** One of the customer's purchases; anyone else's is not found. */
  async purchase(customerId: string, id: string): Promise<{ purchase: PurchaseRecord; productName: string }> {
    const purchase = await this.parts.store.marketplace.getPurchase(id);
    if (purchase === undefined || purchase.customerId !== customerId) throw new NotFoundError('purchase', id, 'List yours with GET /api/v1/marketplace/usage.');
    return { purchase, productName: await this.productName(purchase.productId) };
  }

  /** The customer's ledger, newest first, with the names of the products. */
  async usage(customerId: string): Promise<{ purchase: PurchaseRecord; productName: string }[]> {
    const purchases = await this.parts.store.marketplace.listPurchases(customerId, { limit: 200 });
    return Promise.all(purchases.map(async (purchase) => ({ purchase, productName: await this.productName(purchase.productId) })));
  }

  /** Resolves once every customer run started so far has its outcome in the ledger (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async productName(productId: string): Promise<string> {
    const products = await this.parts.store.marketplace.listProducts();
    return products.find((product) => product.id === productId)?.name ?? 'removed';
  }

  private async pinnedDocument(product: ProductRecord): Promise<SkillDocument> {
    const record = await this.parts.skills.raw(product.skillId);
    return (await this.parts.skills.load(`${record.name}@${product.skillVersion}`)).document;
  }
}
