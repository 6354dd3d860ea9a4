import { z } from 'zod';
import { accountQuotaViewSchema } from '../accounts/quota-views.js';
import { apiCostShape } from './cost-schemas.js';

/** Model calls, tokens and cost of some runs, added up: the cost is unknown (null) when any of their model calls had no known price. */
export const usageTotalsSchema = z
  .object({
    llm_calls: z.number().int().nonnegative(),
    tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).strict(),
    ...apiCostShape,
  })
  .strict();

/** The caller's usage (GET /usage): their runs summed by kind and model, and over all, and their quota. */
export const usageRowSchema = usageTotalsSchema.extend({ kind: z.string(), model: z.string(), runs: z.number().int().nonnegative() }).strict();

export const usageSchema = z
  .object({
    runs: z.number().int().nonnegative(),
    total: usageTotalsSchema.describe('Every run counted, added up.'),
    by_kind_and_model: z.array(usageRowSchema),
    truncated: z.boolean().describe('Whether only the newest 10,000 runs were summed.'),
    quota: accountQuotaViewSchema.nullable().describe('Your account\'s quota (all limits null: unlimited) and its keys\', with what each used today and in the last minute; null without an account.'),
  })
  .strict();
