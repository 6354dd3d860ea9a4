import type { z } from 'zod';
import type { ApiRoute } from './api-route.js';
import { usageSchema, type usageRowSchema } from '../../contract/index.js';

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
