import type { ActiveJob, JobWorker, RunRecord, RunSubmission } from '../core/index.js';
import { RunNotResumableError } from './run-service.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { RunJobValue } from './run-jobs-queue.js';
import { readRunJobPayload } from './legacy-run-requests.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';
import { endRefusedResume } from './resume-task.js';

/** What a worker's job reports back: the run and how it stands after this attempt. */
export type RunJobOutcome = RunJobValue;

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
 * Runs jobs of the scaled mode in this process (`forge worker`), up to `concurrency` at once: each a
 * run request handed to the front door's `execute`, under the queued run's id (or the run it resumes).
 * A job whose worker died (the queue hands a stalled job to another worker) is recognised by its run:
 * still `running` under the dead worker, it is ended `interrupted` and resumed here from its last
 * checkpoint, so no completed call runs twice; a run that cannot go on (no checkpoint, a side-effecting
 * call cut off mid-way) stays failed with the reason.
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
async function runJob(runtime: ForgeRuntime, job: ActiveJob): Promise<RunJobOutcome> {
  const read = readRunJobPayload(job.kind, job.payload);
  if (read === undefined) throw new Error(`A worker got a job of kind "${job.kind}", which it does not run; is a newer Forge queueing work?`);
  const { runId, submission } = read;
  if (submission.request.kind === 'resume') return resumeStored(runtime, runId, job.signal);
  const run = await runtime.store.runs.get(runId);
  if (run === undefined) return { runId, status: 'cancelled', action: 'none' };
  if (run.status !== 'queued') return resumeAbandoned(runtime, run, job.signal);
  return runQueued(runtime, run, submission, job.signal);
}

async function runQueued(runtime: ForgeRuntime, run: RunRecord, submission: RunSubmission, signal: AbortSignal): Promise<RunJobOutcome> {
  const { request } = submission;
  let result: { readonly status: RunRecord['status'] };
  try {
    // Checked again here, by the same code as where it was queued: a model or tool this worker lacks refuses it.
    const started = await runtime.runs.execute(request, { userId: submission.user_id, apiKeyId: run.apiKeyId }, {
      queuedRunId: run.id,
      signal,
      ...(request.kind === 'skill_replay' ? {} : { approvals: storedApprovals(runtime) }),
    });
    result = await started.result;
  } catch (error) {
    // Refused before it started: the run says why.
    await runtime.runs.failQueued(run.id, error);
    throw error;
  }
  // A skill replay's caller waits for its result: it is the job's value, as JSON.
  return { runId: run.id, status: result.status, action: 'started', ...(request.kind === 'skill_replay' ? { result } : {}) };
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
 * which the approver is shown (see `endRefusedResume`).
 */
async function resumeStored(runtime: ForgeRuntime, runId: string, signal: AbortSignal): Promise<RunJobOutcome> {
  let started;
  try {
    started = await runtime.runs.execute({ kind: 'resume', run_id: runId }, { userId: null }, { signal, approvals: storedApprovals(runtime) });
  } catch (error) {
    let refused;
    try {
      refused = await endRefusedResume(runtime, runId, error);
    } catch (unresumable) {
      // Ended meanwhile, or without a checkpoint: it stays as it is, with its reason.
      if (!(unresumable instanceof RunNotResumableError)) throw unresumable;
      return { runId, status: (await runtime.runs.get(runId)).status, action: 'none' };
    }
    const status = (await runtime.runs.get(runId)).status;
    return refused.state === 'refused' ? { runId, status, action: 'refused', resumeRefusal: refused.error.message } : { runId, status, action: 'none' };
  }
  const result = await started.result;
  return { runId, status: result.status, action: 'resumed' };
}
