import { z } from 'zod';
import { accountQuotaViewSchema } from '../../accounts/index.js';
import type { RunRecord } from '../../core/index.js';
import { addCostSums, costSumJson, NO_COST, type CostSum } from '../../llm/index.js';
import type { ApiRoute } from './api-route.js';
import { apiCostShape } from './cost-schemas.js';

const usageTotalsShape = {
  llm_calls: z.number().int().nonnegative(),
  tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).strict(),
  ...apiCostShape,
};

const usageRowSchema = z.object({ kind: z.string(), model: z.string(), runs: z.number().int().nonnegative(), ...usageTotalsShape }).strict();

export const usageSchema = z
  .object({
    runs: z.number().int().nonnegative(),
    total: z.object(usageTotalsShape).strict().describe('Every run counted, added up: the cost is unknown when any of their model calls had no known price.'),
    by_kind_and_model: z.array(usageRowSchema),
    truncated: z.boolean().describe('Whether only the newest 10,000 runs were summed.'),
    quota: accountQuotaViewSchema.nullable().describe('Your account\'s quota (all limits null: unlimited) and its keys\', with what each used today and in the last minute; null without an account.'),
  })
  .strict();

const MAX_RUNS = 10_000;

/** Model calls, tokens and cost of some runs, added up. */
class UsageSum {
  runs = 0;
  private llmCalls = 0;
  private input = 0;
  private output = 0;
  private cost: CostSum = NO_COST;

  add(run: RunRecord): void {
    this.runs += 1;
    this.llmCalls += run.llmCalls;
    this.input += run.inputTokens;
    this.output += run.outputTokens;
    this.cost = addCostSums(this.cost, { costUsd: run.costUsd, pricedCostUsd: run.pricedCostUsd, unpricedCalls: run.unpricedCalls });
  }

  totals(): z.infer<z.ZodObject<typeof usageTotalsShape>> {
    return { llm_calls: this.llmCalls, tokens: { input: this.input, output: this.output }, ...costSumJson(this.cost) };
  }
}

/** The caller's usage and cost: their runs summed by kind and model, and over all. */
export const usageRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/usage',
    summary: 'Your model calls, tokens and cost, summed over your runs by kind and model. A cost is null (unknown) when any model call in it had no known price; cost_usd_known and unpriced_calls give the known part.',
    access: 'usage:read',
    response: usageSchema,
    async handle({ runtime, ownedBy, principal }) {
      const runs = await runtime.runs.list({ limit: MAX_RUNS + 1, ...(ownedBy === undefined ? {} : { ownedBy }) });
      const counted = runs.slice(0, MAX_RUNS);
      const total = new UsageSum();
      const rows = new Map<string, { kind: string; model: string; sum: UsageSum }>();
      for (const run of counted) {
        const key = `${run.kind}\u0000${run.model}`;
        const row = rows.get(key) ?? { kind: run.kind, model: run.model, sum: new UsageSum() };
        row.sum.add(run);
        rows.set(key, row);
        total.add(run);
      }
      const userId = principal?.userId ?? null;
      return {
        runs: counted.length,
        total: total.totals(),
        by_kind_and_model: [...rows.values()].sort((a, b) => b.sum.runs - a.sum.runs).map((row) => ({ kind: row.kind, model: row.model, runs: row.sum.runs, ...row.sum.totals() })),
        truncated: runs.length > MAX_RUNS,
        quota: userId === null ? null : await runtime.quotas.show(userId),
      };
    },
  },
];
