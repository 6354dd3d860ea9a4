import { z } from 'zod';
import { haltReasonSchema, runStatusSchema, tokenUsageSchema } from '../../core/index.js';
import { costPartsShape, costSchema, durationSchema, nestedErrorSchema, rateSchema, usageSchema } from './common-schemas.js';

/** One run's figures, recomputed from its events. */
const runTotalsShape = {
  run_id: z.string().nullable(),
  task: z.string().nullable(),
  model: z.string().nullable(),
  status: runStatusSchema.nullable().describe('null when the log has no run-end'),
  halt_reason: haltReasonSchema.nullable(),
  answer: z.string().nullable(),
  llm_calls: z.number().int().nonnegative(),
  tokens: tokenUsageSchema,
  cost_usd: costSchema,
  ...costPartsShape,
  tool_calls: z.number().int().nonnegative(),
  tool_errors: z.number().int().nonnegative(),
  model_errors: z.number().int().nonnegative(),
  tools: z.record(z.string(), z.number().int().nonnegative()).describe('calls per tool name'),
  per_model: z.record(z.string(), usageSchema),
  syntheses: z.record(z.string(), usageSchema.extend({ status: z.enum(['promoted', 'failed']), revisions: z.number().int().nonnegative(), verification_failures: z.number().int().nonnegative() })),
  duration_ms: durationSchema.nullable(),
};

/** Drafted, promoted and failed syntheses, with the catch rate and the reuse ratio (one run's, or many runs'). */
const synthesisFiguresSchema = z.object({
  drafted: z.number().int().nonnegative(),
  promoted: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  caught: z.number().int().nonnegative(),
  catch_rate: rateSchema.nullable(),
  tool_uses: z.number().int().nonnegative(),
  reuse_ratio: rateSchema.nullable(),
  per_tool: z.record(z.string(), usageSchema.extend({ status: z.enum(['promoted', 'failed']) })),
});

/** Where a run log stopped being readable. */
const runLogErrorSchema = nestedErrorSchema;

/** `forge replay --json`: the run's totals from its log alone. */
export const replayOutputSchema = z.object({ file: z.string(), event_count: z.number().int().nonnegative(), ...runTotalsShape, error: runLogErrorSchema.optional() });

/** How one tool fared over the runs counted. */
const toolFiguresSchema = z.object({
  tool: z.string(),
  calls: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  cache_hits: z.number().int().nonnegative().describe("calls answered from their run's result cache (the tool did not run)"),
  p50_ms: durationSchema.nullable().describe('median duration of the calls the cache did not answer (nearest rank); null when there were none'),
  p95_ms: durationSchema.nullable().describe('95th percentile duration of the calls the cache did not answer (nearest rank); null when there were none'),
  bytes_in: z.number().int().nonnegative().describe('UTF-8 bytes of the inputs as JSON'),
  bytes_out: z.number().int().nonnegative().describe('UTF-8 bytes of the outputs the model was shown, or of the error messages'),
});

/** Per tool, in the order of each tool's first call (oldest run first). */
const toolTableSchema = z.array(toolFiguresSchema);

const runStatsSchema = z.object({
  file: z.string().nullable(),
  ...runTotalsShape,
  synthesis: synthesisFiguresSchema.omit({ per_tool: true }),
  tool_usage: toolTableSchema.describe('per tool (`tools` above is the older calls-per-name record)'),
  error: runLogErrorSchema.optional(),
});

const aggregateStatsSchema = z.object({
  files: z.array(z.string()),
  runs: z.number().int().nonnegative(),
  ...usageSchema.shape,
  halts_by_reason: z.record(z.string(), z.number().int().nonnegative()),
  tool_calls: z.number().int().nonnegative(),
  tool_errors: z.number().int().nonnegative(),
  per_model: z.record(z.string(), usageSchema),
  synthesis: synthesisFiguresSchema,
  tools: toolTableSchema,
  errors: z.array(runLogErrorSchema),
});

/** `forge stats`: one run's figures (one file, or the newest stored run), or many runs added up (`--all`, several files). */
export const statsOutputSchema = z.union([runStatsSchema, aggregateStatsSchema]);
