import { z } from 'zod';
import { accountQuotaViewSchema } from '../accounts/quota-views.js';

/** The caller's usage (GET /usage): their runs summed by kind and model, and their quota. */
export const usageRowSchema = z
  .object({
    kind: z.string(),
    model: z.string(),
    runs: z.number().int().nonnegative(),
    llm_calls: z.number().int().nonnegative(),
    tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).strict(),
    cost_usd: z.number().describe('The sum of the known costs (runs without a known cost add nothing).'),
  })
  .strict();

export const usageSchema = z
  .object({
    runs: z.number().int().nonnegative(),
    by_kind_and_model: z.array(usageRowSchema),
    truncated: z.boolean().describe('Whether only the newest 10,000 runs were summed.'),
    quota: accountQuotaViewSchema.nullable().describe('Your account\'s quota (all limits null: unlimited) and its keys\', with what each used today and in the last minute; null without an account.'),
  })
  .strict();

