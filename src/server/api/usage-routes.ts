import type { z } from 'zod';
import type { RunRecord } from '../../core/index.js';
import { addCostSums, costSumJson, NO_COST, type CostSum } from '../../llm/index.js';
import type { ApiRoute } from './api-route.js';
import { usageSchema, type usageTotalsSchema } from '../../contract/index.js';

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

  totals(): z.infer<typeof usageTotalsSchema> {
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
