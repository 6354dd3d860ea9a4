import { z } from 'zod';
import type { AgentContext } from '../agents/index.js';
import type { RunHandle } from './index.js';
import type { AgentRunResult } from '../engine/index.js';
import type { ConvergeRunResult } from '../synthesis/converge/index.js';
import { startAgentTask } from './agent-runs.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { startTask } from './task-runs.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';

const common = {
  task: z.string().min(1),
  model: z.string().min(1).optional(),
  conversationId: z.string().min(1).optional(),
  userId: z.string().nullable().optional(),
  /** The service key that asked for the run, when one did (its quota counts the run). */
  apiKeyId: z.string().nullable().optional(),
};

/**
 * A run to start, as data: what the API's routes ask for, and what crosses to a worker in the scaled
 * mode (a job's payload is JSON, parsed with this schema on arrival). `task`: a plain agent or
 * convergence run; `agent-task`: an agent definition's run (`agent` is `slug@version`, pinned when it
 * was queued, so every worker runs the same version).
 */
export const runRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('task'),
    ...common,
    tools: z.array(z.string().min(1)).optional(),
    converge: z.boolean().optional(),
    maxIterations: z.number().int().positive().optional(),
    policyRules: z.array(z.unknown()).optional(),
  }).strict(),
  z.object({
    kind: z.literal('agent-task'),
    ...common,
    agent: z.string().min(1),
    params: z.record(z.string(), z.string()).optional(),
    // The agents module loads its template engine; only its type is taken here, checked against this list.
    context: z.enum(['chat', 'background', 'automation'] as const satisfies readonly AgentContext[]).optional(),
  }).strict(),
]);
export type RunRequest = z.infer<typeof runRequestSchema>;

/**
 * Starts a request in this process, its approvals waiting in the store for the owner to answer (as every
 * run started over the API does). `queuedRunId` takes a queued run instead of creating one (a worker).
 */
export async function startRequest(runtime: ForgeRuntime, request: RunRequest, options: { readonly queuedRunId?: string; readonly signal?: AbortSignal } = {}): Promise<RunHandle<AgentRunResult | ConvergeRunResult>> {
  const shared = {
    task: request.task,
    approvals: storedApprovals(runtime),
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
    ...(request.userId === undefined ? {} : { userId: request.userId }),
    ...(request.apiKeyId === undefined ? {} : { apiKeyId: request.apiKeyId }),
    ...(options.queuedRunId === undefined ? {} : { queuedRunId: options.queuedRunId }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (request.kind === 'agent-task') {
    const { handle } = await startAgentTask(runtime, {
      ...shared,
      agent: request.agent,
      ...(request.params === undefined ? {} : { params: request.params }),
      ...(request.context === undefined ? {} : { context: request.context }),
    });
    return handle;
  }
  const { handle } = await startTask(runtime, {
    ...shared,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
    ...(request.converge === true ? { converge: true } : {}),
    ...(request.maxIterations === undefined ? {} : { maxIterations: request.maxIterations }),
    ...(request.policyRules === undefined ? {} : { policyRules: request.policyRules }),
  });
  return handle;
}
