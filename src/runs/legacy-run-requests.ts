import { z } from 'zod';
import { RunRequestError, parseRunRequest, runSubmissionSchema, type RunRequest, type RunSubmission } from '../core/index.js';
import { RUN_JOB, runJobPayloadSchema } from './run-jobs-queue.js';

const legacyCommon = {
  task: z.string().min(1),
  model: z.string().min(1).optional(),
  conversationId: z.string().min(1).optional(),
  userId: z.string().nullable().optional(),
};

/**
 * A run request as Forge wrote it before the front door (schedules stored then; jobs queued by a server
 * not yet upgraded): `task` (an agent or convergence run) or `agent-task`, fields in camelCase, the owner
 * inside.
 */
const legacyRunRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('task'), ...legacyCommon, tools: z.array(z.string().min(1)).optional(), converge: z.boolean().optional(), maxIterations: z.number().int().positive().optional(), policyRules: z.array(z.unknown()).optional() }).strict(),
  z.object({ kind: z.literal('agent-task'), ...legacyCommon, agent: z.string().min(1), params: z.record(z.string(), z.string()).optional(), context: z.enum(['chat', 'background', 'automation']).optional() }).strict(),
]);

function fromLegacy(legacy: z.output<typeof legacyRunRequestSchema>): RunSubmission {
  const shared = {
    task: legacy.task,
    ...(legacy.model === undefined ? {} : { model: legacy.model }),
    ...(legacy.conversationId === undefined ? {} : { conversation_id: legacy.conversationId }),
  };
  const request: RunRequest =
    legacy.kind === 'agent-task'
      ? parseRunRequest({ kind: 'agent_definition', ...shared, agent: legacy.agent, ...(legacy.params === undefined ? {} : { params: legacy.params }), ...(legacy.context === undefined ? {} : { context: legacy.context }) })
      : parseRunRequest({
          kind: legacy.converge === true ? 'converge_task' : 'agent_task',
          ...shared,
          ...(legacy.tools === undefined ? {} : { tools: legacy.tools }),
          ...(legacy.maxIterations === undefined ? {} : { max_iterations: legacy.maxIterations }),
          ...(legacy.policyRules === undefined ? {} : { policy_rules: legacy.policyRules }),
        });
  return { request, user_id: legacy.userId ?? null };
}

/**
 * A stored or queued submission (`{ request, user_id }`), read whichever way it was written: as it is
 * written now, or as a run request of an older Forge, converted. `RunRequestError` names what is wrong.
 */
export function readRunSubmission(value: unknown): RunSubmission {
  const current = runSubmissionSchema.safeParse(value);
  if (current.success) return current.data;
  const legacy = legacyRunRequestSchema.safeParse(value);
  if (legacy.success) return fromLegacy(legacy.data);
  const wrapped = typeof value === 'object' && value !== null && 'request' in value ? (value as { request: unknown }).request : undefined;
  // Says what is wrong with it as a request of today.
  parseRunRequest(wrapped ?? value);
  throw new RunRequestError(current.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(submission)'}: ${issue.message}`));
}

/** The job kind an older Forge queued a resume under (`{ runId }`); today a resume is a run job like any. */
const LEGACY_RESUME_JOB = 'resume-run';

/**
 * A run job's payload as a worker reads it: as written now, or as an older server queued it (a run job
 * `{ runId, request }` with a request of its day, a resume job `{ runId }`).
 */
export function readRunJobPayload(kind: string, payload: unknown): { readonly runId: string; readonly submission: RunSubmission } | undefined {
  const value = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  if (kind === LEGACY_RESUME_JOB && typeof value['runId'] === 'string') {
    return { runId: value['runId'], submission: { request: parseRunRequest({ kind: 'resume', run_id: value['runId'] }), user_id: null } };
  }
  if (kind !== RUN_JOB) return undefined;
  if (typeof value['runId'] === 'string') return { runId: value['runId'], submission: readRunSubmission(value['request']) };
  const parsed = runJobPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new RunRequestError(parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(payload)'}: ${issue.message}`));
  return { runId: parsed.data.run_id, submission: { request: parsed.data.request, user_id: parsed.data.user_id } };
}
