import type { ActiveJob, JobWorker, RunRecord } from '../core/index.js';
import { RunNotResumableError } from './index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { RESUME_JOB, RUN_JOB, SKILL_JOB, resumeJobPayloadSchema, runJobPayloadSchema, skillJobPayloadSchema, type RunJobPayload } from './run-jobs-queue.js';
import { runSkill } from './skill-runs.js';
import { startRequest } from './run-requests.js';
import { resumeAnswered } from './resume-task.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';

/** What a worker's job reports back: the run and how it stands after this attempt. */
export interface RunJobOutcome {
  readonly runId: string;
  readonly status: RunRecord['status'];
  /**
   * `started`: the queued run ran here; `resumed`: it went on from its checkpoint here; `refused`: its
   * resume was refused here and it ended failed, saying why; `none`: nothing was left to do.
   */
  readonly action: 'started' | 'resumed' | 'refused' | 'none';
  /** Why a resume was refused (`refused`). */
  readonly resumeRefusal?: string;
}

/** Something a worker tells whoever watches it (a line on its terminal). */
export type WorkerReport = (line: string) => void;

/** What a worker has done so far, for its health endpoint and its last words. */
export interface WorkerTally {
  /** Jobs running now. */
  readonly active: number;
  /** Jobs ended since it started (whatever their runs' outcome). */
  readonly done: number;
  /** Jobs whose handler threw (a run refused before it started, a store failure). */
  readonly failed: number;
}

/** A worker of this process: its consumer of the queue and its tally. */
export interface RunWorker {
  readonly jobs: JobWorker;
  tally(): WorkerTally;
}

/**
 * Runs jobs of the scaled mode in this process (`forge worker`), up to `concurrency` at once: queued
 * runs, and resumes of runs whose approvals were answered. A job whose worker died (the queue hands a
 * stalled job to another worker) is recognised by its run: still `running` under the dead worker, it is
 * ended `interrupted` and resumed here from its last checkpoint, so no completed call runs twice; a run
 * that cannot go on (no checkpoint, a side-effecting call cut off mid-way) stays failed with the reason.
 */
export function startWorker(runtime: ForgeRuntime, options: { readonly concurrency: number; readonly report?: WorkerReport }): RunWorker {
  const report = options.report ?? (() => undefined);
  let active = 0;
  let done = 0;
  let failed = 0;
  const jobs = runtime.queue.work(async (job) => {
    active += 1;
    try {
      const outcome = await runJob(runtime, job);
      report(`${job.kind} ${outcome.runId}: ${outcome.action === 'none' ? 'nothing to do, it is' : `${outcome.action}, now`} ${outcome.status}${outcome.resumeRefusal === undefined ? '' : `: ${outcome.resumeRefusal}`}`);
      return outcome;
    } catch (error) {
      failed += 1;
      report(`${job.kind} ${job.id}: failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      active -= 1;
      done += 1;
    }
  }, { concurrency: options.concurrency });
  return { jobs, tally: () => ({ active, done, failed }) };
}

/** One job of a worker; see `startWorker`. Its payload is parsed with the schema that made it. */
export async function runJob(runtime: ForgeRuntime, job: ActiveJob): Promise<RunJobOutcome> {
  switch (job.kind) {
    case RUN_JOB:
      return runQueued(runtime, runJobPayloadSchema.parse(job.payload), job.signal);
    case RESUME_JOB:
      return resumeStored(runtime, resumeJobPayloadSchema.parse(job.payload).runId, job.signal);
    case SKILL_JOB: {
      // The caller waits for this result (see `dispatchSkillReplay`): it is the job's result, as JSON.
      const result = await runSkill(runtime, { ...skillJobPayloadSchema.parse(job.payload), signal: job.signal });
      return { ...result, runId: result.run_id, action: 'started' };
    }
    default:
      throw new Error(`A worker got a job of kind "${job.kind}", which it does not run; is a newer Forge queueing work?`);
  }
}

async function runQueued(runtime: ForgeRuntime, payload: RunJobPayload, signal: AbortSignal): Promise<RunJobOutcome> {
  const run = await runtime.store.runs.get(payload.runId);
  if (run === undefined) return { runId: payload.runId, status: 'cancelled', action: 'none' };
  if (run.status !== 'queued') return resumeAbandoned(runtime, run, signal);
  let result;
  try {
    const handle = await startRequest(runtime, payload.request, { queuedRunId: run.id, signal });
    result = await handle.result;
  } catch (error) {
    // Refused before it started (a model not configured on this worker, a tool it lacks): the run says why.
    await runtime.runs.failQueued(run.id, error);
    throw error;
  }
  return { runId: run.id, status: result.status, action: 'started' };
}

/** A run whose worker died under it goes on here from its checkpoint; one that ended or paused is left as it is. */
async function resumeAbandoned(runtime: ForgeRuntime, run: RunRecord, signal: AbortSignal): Promise<RunJobOutcome> {
  await runtime.runs.endAbandoned(run.id);
  const current = await runtime.runs.get(run.id);
  if (current.status !== 'failed' || current.haltReason !== 'interrupted') return { runId: run.id, status: current.status, action: 'none' };
  return resumeStored(runtime, run.id, signal);
}

/**
 * A waiting run whose resume this worker refuses (its model not configured here, a tool it lacks) is not
 * retried, since another attempt would be refused the same: it ends `failed` (`interrupted`) with why,
 * which the approver is shown (see `resumeAnswered`).
 */
async function resumeStored(runtime: ForgeRuntime, runId: string, signal: AbortSignal): Promise<RunJobOutcome> {
  let resume;
  try {
    resume = await resumeAnswered(runtime, runId, { signal, approvals: storedApprovals(runtime) });
  } catch (error) {
    // Ended meanwhile, or without a checkpoint: it stays as it is, with its reason.
    if (!(error instanceof RunNotResumableError)) throw error;
    return { runId, status: (await runtime.runs.get(runId)).status, action: 'none' };
  }
  if (resume.state !== 'resumed') return { runId, status: (await runtime.runs.get(runId)).status, ...(resume.state === 'refused' ? { action: 'refused', resumeRefusal: resume.error.message } : { action: 'none' }) };
  const result = await resume.handle.result;
  return { runId, status: result.status, action: 'resumed' };
}
