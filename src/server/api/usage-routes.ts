import { z } from 'zod';
import { accountQuotaViewSchema } from '../../accounts/index.js';
import type { ApiRoute } from './api-route.js';

const usageRowSchema = z
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

const MAX_RUNS = 10_000;

/** The caller's usage and cost: their runs summed by kind and model. */
export const usageRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/usage',
    summary: 'Your model calls, tokens and cost, summed over your runs by kind and model.',
    access: 'usage:read',
    response: usageSchema,
    async handle({ runtime, ownedBy, principal }) {
      const runs = await runtime.runs.list({ limit: MAX_RUNS + 1, ...(ownedBy === undefined ? {} : { ownedBy }) });
      const counted = runs.slice(0, MAX_RUNS);
      const rows = new Map<string, z.infer<typeof usageRowSchema>>();
      for (const run of counted) {
        const key = `${run.kind}\u0000${run.model}`;
        const row = rows.get(key) ?? { kind: run.kind, model: run.model, runs: 0, llm_calls: 0, tokens: { input: 0, output: 0 }, cost_usd: 0 };
        rows.set(key, {
          ...row,
          runs: row.runs + 1,
          llm_calls: row.llm_calls + run.llmCalls,
          tokens: { input: row.tokens.input + run.inputTokens, output: row.tokens.output + run.outputTokens },
          cost_usd: Math.round((row.cost_usd + (run.costUsd ?? 0)) * 1e6) / 1e6,
        });
      }
      const userId = principal?.userId ?? null;
      return {
        runs: counted.length,
        by_kind_and_model: [...rows.values()].sort((a, b) => b.runs - a.runs),
        truncated: runs.length > MAX_RUNS,
        quota: userId === null ? null : await runtime.quotas.show(userId),
      };
    },
  },
];
