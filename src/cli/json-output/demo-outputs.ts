import { z } from 'zod';
import { resolutionStrategySchema, tokenUsageSchema } from '../../core/index.js';
import { durationSchema } from './common-schemas.js';

const lifecycleDemoSchema = z.object({
  skill: z.string(),
  home: z.string(),
  rows: z.array(
    z.object({
      kind: z.enum(['agent (recorded model session)', 'skill replay']),
      topic: z.string(),
      run_id: z.string(),
      log_file: z.string(),
      status: z.string(),
      llm_calls: z.number().int().nonnegative(),
      tokens: tokenUsageSchema,
      duration_ms: durationSchema,
      url: z.string().nullable(),
      strategy: resolutionStrategySchema.nullable(),
    }),
  ),
});

const toolboxDemoSchema = z.object({
  home: z.string(),
  rows: z.array(
    z.object({
      topic: z.string(),
      run_id: z.string(),
      status: z.string(),
      halt_reason: z.string().nullable(),
      answer: z.string().nullable(),
      llm_calls: z.number().int().nonnegative(),
      tokens: tokenUsageSchema,
      duration_ms: durationSchema,
      syntheses: z.record(z.string(), z.string()),
      verification_failures: z.array(z.string()),
      tool_uses: z.number().int().nonnegative(),
    }),
  ),
});

/** `forge demo`: the lifecycle comparison; with `--toolbox` the self-extending toolbox's. */
export const demoOutputSchema = z.union([lifecycleDemoSchema, toolboxDemoSchema]);
