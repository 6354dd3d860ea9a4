import { z } from 'zod';
import { runRequestSchema, type RunRecord } from '../core/index.js';

/** A worker's job: a run request to run (a queued run, or a resume of a run whose approvals were answered). */
export const RUN_JOB = 'run';

/**
 * Run jobs are retried after a failed attempt (a store that did not answer, a worker's connection
 * lost): safe, because the handler acts on the run's stored status, never on the attempt: a queued run
 * starts, one its worker left is resumed from its checkpoint (a cut-off write is never run again), and
 * one that ended or paused is left alone. A skill replay is not: a replay that wrote and then failed
 * would write again.
 */
export const RUN_JOB_RETRY = { attempts: 3, backoff: { type: 'exponential', delayMs: 1_000 } } as const;

/** What crosses to a worker, parsed on arrival (payloads are JSON): the run (queued, or to resume), its request, its account. */
export const runJobPayloadSchema = z.object({ run_id: z.string().min(1), request: runRequestSchema, user_id: z.string().min(1).nullable() }).strict();
export type RunJobPayload = z.input<typeof runJobPayloadSchema>;

/** What a worker's job answers with: the run, how it stands after this attempt, and a skill replay's result (its caller waits for it). */
export interface RunJobValue {
  readonly runId: string;
  /** Null when no run is stored under the job's id. */
  readonly status: RunRecord['status'] | null;
  /**
   * `started`: the queued run ran here; `resumed`: it went on from its checkpoint here; `refused`: its
   * resume was refused here and it ended failed, saying why; `rejected`: the job disagreed with the
   * stored run and nothing of it ran (`rejection` says why); `none`: nothing was left to do.
   */
  readonly action: 'started' | 'resumed' | 'refused' | 'rejected' | 'none';
  /** Why a resume was refused (`refused`). */
  readonly resumeRefusal?: string;
  /** Why the job was rejected (`rejected`). */
  readonly rejection?: string;
  readonly result?: unknown;
}
