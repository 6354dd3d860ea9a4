import { z } from 'zod';
import { errorInfoSchema, haltReasonSchema, runKindSchema, runStatusSchema, runStepSchema as storedRunStepSchema, tokenUsageSchema } from '../../core/index.js';
import { figurePrecision } from './json-presenter.js';

/** Dollars, rounded to 1e-6 by the presenter. */
export const dollarsSchema = z.number().nonnegative().describe('US dollars, rounded to 1e-6').register(figurePrecision, { decimals: 6 });

/** Dollars; null when a model's price is unknown. */
export const costSchema = dollarsSchema.nullable();

/** Milliseconds, rounded to 0.1 by the presenter. */
export const durationSchema = z.number().nonnegative().describe('milliseconds, rounded to 0.1').register(figurePrecision, { decimals: 1 });

/** A rate or ratio, rounded to 1e-4 by the presenter. */
export const rateSchema = z.number().nonnegative().describe('rounded to 1e-4').register(figurePrecision, { decimals: 4 });

/** One tool call of a run, as its result lists it. */
export const runStepSchema = storedRunStepSchema.extend({ duration_ms: durationSchema });

/** An error inside a result (a failed step, a run that failed): name, message and, when Forge knows one, a hint. */
export const nestedErrorSchema = errorInfoSchema;

/** A value that came from outside Forge (tool inputs and results, JSON Schemas): any JSON. */
export const anyJsonSchema = z.unknown();

/** The known part of a cost that may be unknown: what the priced model calls cost, and how many calls had no price. */
export const costPartsShape = {
  cost_usd_known: dollarsSchema.describe('US dollars of the model calls with a known price (all of cost_usd when it is known), rounded to 1e-6'),
  unpriced_calls: z.number().int().nonnegative().describe('model calls whose model has no known price (cost_usd is null when there is any)'),
};

/** Model calls, tokens and dollars of some runs. */
export const usageSchema = z.object({ llm_calls: z.number().int().nonnegative(), tokens: tokenUsageSchema, cost_usd: costSchema, ...costPartsShape });

/** What every run reports when it ends (agent run, convergence run, skill replay, tool call). */
export const runSummaryShape = {
  run_id: z.string(),
  status: runStatusSchema,
  halt_reason: haltReasonSchema,
  answer: z.string().nullable(),
  llm_calls: z.number().int().nonnegative(),
  tokens: tokenUsageSchema,
  cost_usd: costSchema,
  ...costPartsShape,
  error: nestedErrorSchema.nullable(),
  duration_ms: durationSchema,
};

/** An agent or convergence run's result (`forge run`, an approval that resumed a run). */
export const agentRunResultSchema = z.object({
  ...runSummaryShape,
  steps: z.array(runStepSchema),
  warnings: z.array(z.string()),
  waiting_on: z.array(z.string()).optional(),
  conversation_id: z.string(),
  log_file: z.string(),
  /** Convergence runs: how many tools the run synthesized. */
  syntheses: z.number().int().nonnegative().optional(),
  /** `forge run --skills` when no skill covered the task. */
  replayed_skill: z.null().optional(),
});

/** A stored run as `forge runs …` shows it. */
export const runViewSchema = z.object({
  run_id: z.string(),
  kind: runKindSchema,
  status: runStatusSchema,
  halt_reason: haltReasonSchema.nullable(),
  task: z.string(),
  model: z.string(),
  answer: z.string().nullable(),
  error: z.string().nullable(),
  conversation_id: z.string().nullable(),
  llm_calls: z.number().int().nonnegative(),
  tokens: tokenUsageSchema,
  cost_usd: costSchema,
  ...costPartsShape,
  owner: z.object({ pid: z.number().int(), host: z.string() }).nullable(),
  log_file: z.string().nullable(),
  agent: z.object({ slug: z.string(), version: z.number().int().positive() }).nullable().describe('The agent definition version the run ran (forge run --agent).'),
  created_at: z.string(),
  updated_at: z.string(),
});
