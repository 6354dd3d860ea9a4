import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NotFoundError, type ProductRecord, type PurchaseRecord, type Store } from '../core/index.js';
import type { SkillService } from '../skills/skill-service.js';
import { answerOutputNames, assertSkillName, unboundAnswerValues, type SkillDocument, type SkillReplayResult } from '../skills/index.js';
import { MarketplacePermissionError, ProductOutputError } from './marketplace-errors.js';
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
      .describe("The fields of the skill's answer a customer gets (its outputs: the values its answer template states, or an agent's output fields); nothing else leaves. Required when the skill's answer cannot be bound for every replay."),
    published: z.boolean().default(true),
  })
  .strict();

export type ProductRequest = z.input<typeof productRequestSchema>;

/**
 * What a customer gets of a completed replay: the product's output fields taken from the replay's
 * outputs (the values its answer template bound; missing ones null), or, for a product without output
 * fields, the answer when the skill's answer template made it with every value bound. Never a tool's
 * result, a model's reading of results, or anything else of the replay.
 */
export function customerResult(replay: Pick<SkillReplayResult, 'status' | 'answer' | 'outputs' | 'answer_source'>, outputFields: readonly string[]): string | null {
  if (replay.status !== 'completed') return null;
  if (outputFields.length > 0) return JSON.stringify(Object.fromEntries(outputFields.map((field) => [field, Object.hasOwn(replay.outputs, field) ? (replay.outputs[field] ?? null) : null])));
  return replay.answer_source === 'template' ? replay.answer : null;
}

/**
 * Why a skill cannot be packaged with these output fields, or undefined when it can: without output
 * fields its answer must come whole from its answer template (so a skill without one, or whose template
 * has values a replay cannot bind, would hand out a raw tool result); declared fields must be outputs
 * the skill gives values to.
 */
export function productOutputProblem(document: SkillDocument, outputFields: readonly string[]): { message: string; hint: string } | undefined {
  const outputs = answerOutputNames(document);
  const declare =
    outputs.length === 0
      ? 'save the skill again from a run whose answer states the values it found (an agent with outputs does), then declare the fields customers get with output_fields'
      : `declare the fields customers get with output_fields (this skill's outputs: ${outputs.join(', ')})`;
  if (outputFields.length > 0) {
    const unknown = outputFields.filter((field) => !outputs.includes(field));
    if (unknown.length === 0) return undefined;
    return { message: `The skill "${document.name}" has no output ${unknown.map((field) => `"${field}"`).join(', ')}.`, hint: outputs.length === 0 ? `Publish it without output_fields, or ${declare}.` : `Choose output_fields among its outputs: ${outputs.join(', ')}.` };
  }
  if (document.answer === undefined) {
    return { message: `The skill "${document.name}" was saved without an answer template, so a customer's answer would be its last tool result as it came.`, hint: `Save the skill again from its run (forge skill save <run> --force) so it gets one, or ${declare}.` };
  }
  const unbound = unboundAnswerValues(document.answer);
  if (unbound.length === 0) return undefined;
  return { message: `The answer of skill "${document.name}" states values no replay can bind (${unbound.slice(0, 5).map((value) => JSON.stringify(value)).join(', ')}): a customer's answer would have to come from raw tool results.`, hint: `To publish it, ${declare}.` };
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
      throw new NotFoundError('skill', parsed.skill, 'List your skills with GET /api/v1/skills.', 'name or id');
    });
    if (!owns(record.userId)) throw new NotFoundError('skill', parsed.skill, 'List your skills with GET /api/v1/skills.', 'name or id');
    const existing = await this.parts.store.marketplace.getProduct(parsed.name);
    if (existing !== undefined && !owns(existing.sellerId)) throw new MarketplacePermissionError(`The product name "${parsed.name}" is taken.`, 'Choose another name.');
    const outputProblem = productOutputProblem(document, parsed.output_fields);
    if (outputProblem !== undefined) throw new ProductOutputError(outputProblem.message, outputProblem.hint);
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
    if (product === undefined || !owns(product.sellerId)) throw new NotFoundError('product', name, 'List your products with GET /api/v1/marketplace/products.', 'name');
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
    if (product === undefined || !product.published) throw new NotFoundError('product', name, 'List the products with GET /api/v1/marketplace/products.', 'name');
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
            answer: customerResult(result, product.outputFields),
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
