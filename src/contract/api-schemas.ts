import { z } from 'zod';
import { errorInfoSchema, haltReasonSchema, runKindSchema, runStatusSchema } from '../core/index.js';
import { approvalGrantViewSchema, approvalViewSchema } from '../policy/approvals/approval-view.js';
import { policyRuleSchema } from '../policy/policy-document.js';
import { apiCostShape } from './cost-schemas.js';

/**
 * The bodies of Forge's HTTP API (`/api/v1`): one zod schema each, validated at the edge, the source of
 * the OpenAPI document and the typed client. Field names are snake_case like the CLI's `--json`.
 */

export const errorBodySchema = z
  .object({
    error: z
      .object({
        name: z.string(),
        message: z.string(),
        hint: z.string().optional(),
        quota: z
          .object({
            name: z.enum(['concurrent_runs', 'runs_per_minute', 'tokens_per_day', 'usd_per_day']),
            subject: z.object({ kind: z.enum(['account', 'api-key']), id: z.string() }).strict(),
            limit: z.number(),
            used: z.number(),
            resets_at: z.string().nullable().describe('When the quota frees; null for concurrent runs, which free as runs end.'),
            retry_after_seconds: z.number().int().positive().describe('As the Retry-After header says.'),
          })
          .strict()
          .optional()
          .describe('On a 429 QuotaExceededError: which quota of whom refused, its limit, what was used and when it resets.'),
      })
      .strict(),
  })
  .strict()
  .describe('Every error: what went wrong and how to fix it.');

export const runSchema = z
  .object({
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
    tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).strict(),
    ...apiCostShape,
    agent: z.object({ slug: z.string(), version: z.number().int().positive() }).strict().nullable().describe('The agent definition version the run ran.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .describe('A recorded run.');

export const startRunRequestSchema = z
  .object({
    task: z.string().trim().min(1).max(20_000).describe('What the agent should do, in plain words.'),
    model: z.string().min(1).optional().describe('A model slug, e.g. openai:gpt-4.1-mini; default the server\'s FORGE_MODEL.'),
    tools: z.array(z.string().min(1)).max(200).optional().describe('Only these tools, by exact name.'),
    conversation_id: z.string().min(1).optional().describe('Continue this conversation.'),
    converge: z.boolean().optional().describe('Convergence-gated mode: one tool per turn, a plan, request_tool.'),
    max_iterations: z.number().int().positive().max(200).optional(),
    policy_rules: z.array(policyRuleSchema).max(100).optional().describe("The run's own policy rules (tool, decision, when); they only tighten the installation's policy."),
  })
  .strict();

export const startedRunSchema = z
  .object({ run_id: z.string(), events_url: z.string().describe('The run\'s events as Server-Sent Events.') })
  .strict();

export const runListQuerySchema = z
  .object({
    status: z.union([runStatusSchema, z.array(runStatusSchema)]).optional(),
    limit: z.coerce.number().int().positive().max(200).default(50),
    cursor: z.string().min(1).optional().describe('The next_cursor of the previous page.'),
  })
  .strict();

export const runListSchema = z
  .object({ runs: z.array(runSchema), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.') })
  .strict();

export const cancelRunRequestSchema = z.object({ reason: z.string().max(500).optional() }).strict();

export const approvalSchema = approvalViewSchema;

export const approvalListSchema = z.object({ approvals: z.array(approvalSchema) }).strict();

export const approvalAnswerRequestSchema = z
  .object({
    reason: z.string().max(2_000).optional().describe('Why; required for a denial (the model is told).'),
    digest: z.string().regex(/^[0-9a-f]{6,64}$/).optional().describe("Answer only if the call's input digest starts with this."),
    always: z.literal('run').optional().describe('With an approval: approve every later call of this tool in this run without asking (revocable).'),
  })
  .strict();

export const approvalAnswerSchema = z
  .object({
    approval: approvalSchema,
    grant: approvalGrantViewSchema.nullable(),
    resumed: z.boolean().describe('Whether the run went on (in the server, or scaled on a worker).'),
    resume_error: errorInfoSchema
      .nullable()
      .describe('Why the run could not go on after the answer (its model not configured, a tool gone): it then ended failed (interrupted) with this reason, to be resumed once fixed. Null otherwise.'),
  })
  .strict();
export const approvalGrantListSchema = z.object({ grants: z.array(approvalGrantViewSchema) }).strict();
export const approvalGrantSchema = z.object({ grant: approvalGrantViewSchema }).strict();

export const healthSchema = z.object({ status: z.literal('ok'), version: z.string() }).strict();
export const readySchema = z.object({ status: z.enum(['ready', 'shutting_down']), active_runs: z.number().int().nonnegative() }).strict();

export type ApiRun = z.infer<typeof runSchema>;
export type StartRunRequest = z.infer<typeof startRunRequestSchema>;
export type StartedRun = z.infer<typeof startedRunSchema>;
export type RunList = z.infer<typeof runListSchema>;
export type ApiApproval = z.infer<typeof approvalSchema>;
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;
export type ApiError = z.infer<typeof errorBodySchema>;

export const conversationSchema = z.object({ conversation_id: z.string(), title: z.string().nullable(), created_at: z.string() }).strict();

export const messageSchema = z
  .object({
    message_id: z.number().int(),
    run_id: z.string().nullable(),
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.unknown().describe('The provider-neutral message content (text, tool calls, tool results).'),
    model: z.string().nullable(),
    created_at: z.string(),
  })
  .strict();

export const conversationListSchema = z.object({ conversations: z.array(conversationSchema) }).strict();
export const conversationDetailSchema = z.object({ conversation: conversationSchema, messages: z.array(messageSchema) }).strict();
export const createConversationRequestSchema = z.object({ title: z.string().trim().min(1).max(200).optional() }).strict();

export const sendMessageRequestSchema = z
  .object({
    content: z.string().trim().min(1).max(20_000).describe('The user\'s message: the task of the run that answers it.'),
    model: z.string().min(1).optional(),
    tools: z.array(z.string().min(1)).max(200).optional(),
    agent: z.string().min(1).max(80).optional().describe('Answer as this agent (slug or slug@version): its prompt, tools and policy; its parameters are read from the message, and what is missing is asked for.'),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe("The agent's parameter values, where the message need not say them."),
  })
  .strict();

export type ApiConversation = z.infer<typeof conversationSchema>;
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;
