import { z } from 'zod';
import type { ForgeRuntime } from './create-runtime.js';
import { runRequestSchema } from './run-requests.js';

/** A worker's job: start a queued run (`run`), or go on with a run whose approvals were answered (`resume-run`). */
export const RUN_JOB = 'run';
export const RESUME_JOB = 'resume-run';

/** What crosses to a worker, parsed with these schemas on arrival: payloads are JSON. */
export const runJobPayloadSchema = z.object({ runId: z.string().min(1), request: runRequestSchema }).strict();
export const resumeJobPayloadSchema = z.object({ runId: z.string().min(1) }).strict();
export type RunJobPayload = z.infer<typeof runJobPayloadSchema>;

/** Queues the resume of a stored run for a worker; one per run at a time (asking again while one waits adds nothing). */
export async function queueResume(runtime: ForgeRuntime, runId: string): Promise<void> {
  await runtime.queue.enqueue(RESUME_JOB, { runId }, { id: `resume-${runId}` });
}
