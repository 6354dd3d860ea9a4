import { setTimeout as delay } from 'node:timers/promises';
import { ForgeError, type RunRecord } from '../core/index.js';
import { cancelWaitingRun } from '../policy/approvals/approval-answers.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

/** How long a cancellation waits for the worker that runs the run to end it, before answering with where it stands. */
const CANCEL_WAIT_MS = 10_000;

/** A run that cannot be cancelled as it stands (it ended, or it runs in a process that takes no cancellations). */
export class RunNotCancellableError extends ForgeError {
  constructor(run: RunRecord) {
    super({
      name: 'RunNotCancellableError',
      message: `Run ${run.id} is ${run.status}; only a waiting run can be cancelled here (in the scaled mode a queued or running one too).`,
      hint: run.status === 'running' ? 'It runs in another process that this one cannot reach (a terminal); cancel it there with Ctrl-C.' : 'There is nothing left to cancel.',
    });
  }
}

/**
 * Cancels a run wherever it is: one this process runs ends through its signal; one that waits for an
 * approval ends `cancelled` with its requests expired; in the scaled mode a queued run is taken off the
 * queue (it never starts) and a running one is cancelled on the worker that runs it. Resolves with the
 * run as it stands once it has ended (or after CANCEL_WAIT_MS, with where it stands then).
 */
export async function cancelRun(runtime: ForgeRuntime, reference: string, reason: string): Promise<RunRecord> {
  const run = await runtime.runs.get(reference);
  const runId = run.id;
  if (runtime.runs.cancelActive(runId, reason)) {
    for await (const _event of runtime.runs.eventsAfter(runId, Number.MAX_SAFE_INTEGER - 1)) {
      // Nothing to read: the loop ends when the run's feed closes.
    }
  } else if (run.status === 'waiting') {
    await cancelWaitingRun(runtime, runId, reason);
  } else if (runtime.mode === 'scaled' && (run.status === 'queued' || run.status === 'running') && (await runtime.queue.cancel(runId, reason))) {
    if (!(await runtime.runs.cancelQueued(runId, reason))) await settled(runtime, runId);
  } else {
    throw new RunNotCancellableError(run);
  }
  return runtime.runs.get(runId);
}

/** Waits (polling the store, bounded) until a run another process runs is no longer running. */
async function settled(runtime: ForgeRuntime, runId: string): Promise<void> {
  const deadline = Date.now() + CANCEL_WAIT_MS;
  while (Date.now() < deadline) {
    const run = await runtime.runs.get(runId);
    if (run.status !== 'running' && run.status !== 'queued') return;
    await delay(50);
  }
}
