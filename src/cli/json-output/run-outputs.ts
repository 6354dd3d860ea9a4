import { z } from 'zod';
import { resolutionStrategySchema } from '../../core/index.js';
import { approvalGrantViewSchema, approvalViewSchema } from '../../policy/approvals/approval-view.js';
import { agentRunResultSchema, anyJsonSchema, durationSchema, nestedErrorSchema, runSummaryShape, runViewSchema } from './common-schemas.js';

const resolutionSchema = z.object({
  name: z.string(),
  strategy: resolutionStrategySchema,
  value: anyJsonSchema,
  because: z.string(),
  proven: z.boolean(),
  candidates: z.number().int().nonnegative(),
  scores: z.array(z.object({ value: anyJsonSchema, score: z.number().nullable() })),
  rejections: z.array(z.object({ strategy: resolutionStrategySchema, reason: z.string(), answer: z.string().optional() })),
});

/** A skill replay's report (`forge skill run`, `forge run --skills`). */
export const skillReplayResultSchema = z.object({
  ...runSummaryShape,
  skill: z.string(),
  mode: z.enum(['deterministic', 'guided']),
  dry_run: z.boolean(),
  summary: z.string().nullable(),
  outputs: z.record(z.string(), anyJsonSchema).describe("the answer's values for this replay by name: an agent's typed outputs, or the values a text answer states"),
  answer_source: z.enum(['template', 'model', 'results', 'summary', 'dry-run']).nullable().describe('template: the answer template bound to this replay (no model call); model: one counted call wrote it because a value could not be bound; results: the last step\'s result (answer_note says why); summary: --summarize'),
  answer_note: z.string().nullable().describe('why the answer is not the bound template, when it is not'),
  stale: z.string().nullable(),
  steps: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      tool: z.string(),
      side_effect: z.enum(['read', 'write']),
      executed: z.boolean(),
      arguments: z.record(z.string(), anyJsonSchema),
      ok: z.boolean(),
      output: z.string(),
      error: nestedErrorSchema.nullable(),
      duration_ms: durationSchema,
      resolutions: z.array(resolutionSchema),
    }),
  ),
  writes: z.array(z.object({ step: z.number().int(), tool: z.string(), arguments: z.record(z.string(), anyJsonSchema), made: z.boolean(), ok: z.boolean().nullable(), error: nestedErrorSchema.nullable() })),
  refusal: z.object({ step: z.number().int().nullable(), tool: z.string().nullable(), reasons: z.array(z.string()) }).nullable(),
  log_file: z.string(),
  extraction: z
    .object({
      inputs: z.record(z.string(), anyJsonSchema),
      sources: z.record(z.string(), z.enum(['template', 'anchor', 'shape', 'enum', 'model'])),
      missing: z.array(z.string()),
      method: z.string(),
      llm_calls: z.number().int().nonnegative(),
    })
    .nullable(),
});

/** `forge run`: an agent or convergence run, or with `--skills` the replay of the skill that covered the task. */
export const runOutputSchema = z.union([agentRunResultSchema, skillReplayResultSchema.extend({ replayed_skill: z.string() })]);

export const runsListOutputSchema = z.object({ runs: z.array(runViewSchema) });
/** One stored tool call of a run (`forge runs show`): its output readable, `null` when the call failed. */
export const storedStepSchema = z.object({
  index: z.number().int().nonnegative(),
  call_id: z.string(),
  tool: z.string(),
  input: anyJsonSchema,
  ok: z.boolean(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: durationSchema,
});

export const runsShowOutputSchema = runViewSchema.extend({ steps: z.array(storedStepSchema).describe('The tool calls the run made, in order.') });
export const runsCancelOutputSchema = runViewSchema;

const approvalSchema = approvalViewSchema;

export const approvalsListOutputSchema = z.object({ approvals: z.array(approvalSchema) });
/** An answer; `resumed` is the run's result when this process resumed it, null when the process that waits for it goes on. */
export const approvalAnswerOutputSchema = z.object({
  approval: approvalSchema,
  grant: approvalGrantViewSchema.nullable().describe('The "approve always" grant the answer made (--always).'),
  resumed: agentRunResultSchema.nullable(),
  resume_error: nestedErrorSchema.nullable().describe('Why the run could not go on after the answer; it then ended failed (interrupted) with this reason, to be resumed once fixed.'),
});
export const approvalsGrantsOutputSchema = z.object({ grants: z.array(approvalGrantViewSchema) });
export const approvalsRevokeOutputSchema = z.object({ grant: approvalGrantViewSchema });
