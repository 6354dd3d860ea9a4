import type { ActiveJob, JobWorker, RunRecord, RunRequest } from '../core/index.js';
import { RunNotQueuedError, RunNotResumableError } from './run-service.js';
import { RunJobMismatchError, payloadDisagreements, storedRunPrincipal } from './queued-run-checks.js';
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
 * run request handed to the front door, under the queued run's id (or the run it resumes).
 *
 * A job's payload is data, never a credential: the run it names must be stored, the run runs as the
 * account and key stored with it (checked live again), and its request must make the run stored when it
 * was queued. A job that disagrees (another account's id, another task, a run that does not exist) is
 * refused, reported, left unretried, and changes nothing (see `RunJobMismatchError`). A job acts only on
 * a run in the state it was queued for: a queued run starts, a resume goes on with a run that can go on;
 * a copy of a job whose run has started or ended does nothing.
 *
 * A job whose worker died (the queue hands a stalled job to another worker, `redelivered`), or a later
 * attempt of a job that failed, is recognised by its run: still `running` under the dead worker, it is
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
      report(`${job.kind} ${outcome.runId}: ${describeOutcome(outcome)}`);
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

function describeOutcome(outcome: RunJobOutcome): string {
  if (outcome.action === 'rejected') return `rejected: ${outcome.rejection ?? ''}`;
  const now = outcome.action === 'none' ? 'nothing to do, it is' : `${outcome.action}, now`;
  return `${now} ${outcome.status ?? 'not stored'}${outcome.resumeRefusal === undefined ? '' : `: ${outcome.resumeRefusal}`}`;
}

/** One job of a worker; see `startWorker`. Its payload is parsed with the schema that made it. */
async function runJob(runtime: ForgeRuntime, job: ActiveJob): Promise<RunJobOutcome> {
  const read = readRunJobPayload(job.kind, job.payload);
  if (read === undefined) throw new Error(`A worker got a job of kind "${job.kind}", which it does not run; is a newer Forge queueing work?`);
  const { runId, submission } = read;
  const { request } = submission;
  const run = await runtime.store.runs.get(runId);
  if (run === undefined) return rejected(new RunJobMismatchError(runId, [`no run ${runId} is stored`]), null);
  if (request.kind === 'resume') {
    // Whoever answered the approvals queued it; the run goes on as its own account, read from the store.
    if (request.run_id !== runId) return rejected(new RunJobMismatchError(runId, [`it resumes run ${request.run_id} under run ${runId}'s id`]), run.status);
    return resumeStored(runtime, runId, job.signal);
  }
  const disagreements = payloadDisagreements(run, submission);
  if (disagreements.length > 0) return rejected(new RunJobMismatchError(runId, disagreements), run.status);
  if (run.status === 'queued') return runQueued(runtime, run, request, job.signal);
  // Only this job's own later attempt goes on with a run it took; any other copy of it is a replay.
  if (job.redelivered !== true && job.attempt <= 1) return { runId, status: run.status, action: 'none' };
  return resumeAbandoned(runtime, run, job.signal);
}

/** A refused job's outcome: reported, never retried, nothing changed. */
function rejected(error: RunJobMismatchError, status: RunRecord['status'] | null): RunJobOutcome {
  return { runId: error.runId, status, action: 'rejected', rejection: error.message };
}

async function runQueued(runtime: ForgeRuntime, run: RunRecord, request: RunRequest, signal: AbortSignal): Promise<RunJobOutcome> {
  let result: { readonly status: RunRecord['status'] };
  try {
    // Checked again here, by the same code as where it was queued: a model or tool this worker lacks refuses it.
    const started = await runtime.runs.executeQueued<RunRequest>(run, request, await storedRunPrincipal(runtime, run), {
      signal,
      ...(request.kind === 'skill_replay' ? {} : { approvals: storedApprovals(runtime) }),
    });
    result = await started.result;
  } catch (error) {
    if (error instanceof RunJobMismatchError) return rejected(error, run.status);
    // Another copy of the job took it first: it runs there.
    if (error instanceof RunNotQueuedError) return { runId: run.id, status: (await runtime.store.runs.get(run.id))?.status ?? null, action: 'none' };
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
