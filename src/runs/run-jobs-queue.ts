import { z } from 'zod';
import type { ReplayModeOption } from '../skills/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { runRequestSchema } from './run-requests.js';

/**
 * A worker's job: start a queued run (`run`), go on with a run whose approvals were answered
 * (`resume-run`), or replay a skill for a caller who waits for its result (`skill-replay`).
 */
export const RUN_JOB = 'run';
export const RESUME_JOB = 'resume-run';
export const SKILL_JOB = 'skill-replay';

/**
 * Run and resume jobs are retried after a failed attempt (a store that did not answer, a worker's
 * connection lost): safe, because the handler acts on the run's stored status, never on the attempt: a
 * queued run starts, one its worker left is resumed from its checkpoint (a cut-off write is never run
 * again), and one that ended or paused is left alone. A skill replay is not: a replay that wrote and
 * then failed would write again.
 */
export const RUN_JOB_RETRY = { attempts: 3, backoff: { type: 'exponential', delayMs: 1_000 } } as const;

/** What crosses to a worker, parsed with these schemas on arrival: payloads are JSON. */
export const runJobPayloadSchema = z.object({ runId: z.string().min(1), request: runRequestSchema }).strict();
export const resumeJobPayloadSchema = z.object({ runId: z.string().min(1) }).strict();
export type RunJobPayload = z.infer<typeof runJobPayloadSchema>;
/** A skill replay as data: the skill pinned (`name@version`), its inputs, and whose run it is. */
export const skillJobPayloadSchema = z
  .object({
    skill: z.string().min(1),
    inputs: z.record(z.string(), z.unknown()),
    dryRun: z.boolean().optional(),
    mode: z.enum(['auto', 'deterministic', 'guided'] as const satisfies readonly ReplayModeOption[]).optional(),
    userId: z.string().nullable(),
    apiKeyId: z.string().nullable().optional(),
  })
  .strict();
export type SkillJobPayload = z.infer<typeof skillJobPayloadSchema>;

/** Queues the resume of a stored run for a worker; one per run at a time (asking again while one waits adds nothing). */
export async function queueResume(runtime: ForgeRuntime, runId: string): Promise<void> {
  await runtime.queue.enqueue(RESUME_JOB, { runId }, { id: `resume-${runId}`, retry: RUN_JOB_RETRY });
}
