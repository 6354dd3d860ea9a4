import { z } from 'zod';

/**
 * The marketplace's bodies. Customer answers are their own types, built field by field from the
 * product and the ledger: nothing of the skill's implementation (steps, tools, arguments, URLs,
 * recorded values, resolution, model metadata) has a field to travel in. Seller answers are separate.
 */

const priceSchema = z.object({ amount_minor: z.number().int().nonnegative().describe('In minor units (cents).'), currency: z.string() }).strict();

const formFieldSchema = z
  .object({
    type: z.enum(['string', 'number', 'integer', 'boolean', 'array']),
    description: z.string(),
    items: z.object({ type: z.enum(['string', 'number', 'integer']) }).strict().optional(),
    enum: z.array(z.union([z.string(), z.number()])).optional(),
  })
  .strict();

export const productFormSchema = z
  .object({ type: z.literal('object'), properties: z.record(z.string(), formFieldSchema), required: z.array(z.string()), additionalProperties: z.literal(false) })
  .strict()
  .describe('The customer input form, as a JSON Schema object.');

/** What a customer sees of a product: its contract. */
export const customerProductSchema = z
  .object({
    product: z.string(),
    description: z.string(),
    price: priceSchema,
    inputs_schema: productFormSchema,
    output: z.object({ type: z.enum(['text', 'object']), fields: z.array(z.string()).describe('For an object result: its fields.'), description: z.string() }).strict(),
  })
  .strict();

export const customerProductListSchema = z.object({ products: z.array(customerProductSchema) }).strict();

export const customerRunRequestSchema = z.object({ inputs: z.record(z.string(), z.unknown()).default({}) }).strict();

/** One customer run, as its customer sees it. */
export const customerPurchaseSchema = z
  .object({
    purchase_id: z.string(),
    product: z.string(),
    status: z.enum(['running', 'completed', 'failed', 'refused']),
    result: z.string().nullable().describe('The product\'s answer once completed: its output fields as a JSON object, or text.'),
    message: z.string().nullable().describe('Why there is no result, when it did not complete.'),
    charged: priceSchema.describe('What this run was charged: the price when it completed, else 0.'),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    poll_url: z.string(),
  })
  .strict();

export const customerUsageSchema = z
  .object({
    purchases: z.array(customerPurchaseSchema),
    totals: z.array(z.object({ currency: z.string(), charged_minor: z.number().int().nonnegative(), runs: z.number().int().nonnegative() }).strict()),
  })
  .strict();

/** A product as its seller manages it. */
export const sellerProductSchema = z
  .object({
    product: z.string(),
    description: z.string(),
    skill: z.string(),
    skill_version: z.number().int().positive(),
    price: priceSchema,
    output_fields: z.array(z.string()),
    published: z.boolean(),
    inputs_schema: productFormSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

export type CustomerProduct = z.infer<typeof customerProductSchema>;
export type CustomerPurchase = z.infer<typeof customerPurchaseSchema>;
export type CustomerUsage = z.infer<typeof customerUsageSchema>;
export type SellerProduct = z.infer<typeof sellerProductSchema>;
