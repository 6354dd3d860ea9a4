import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { finishRun } from '../../engine/index.js';
import { ForgeError, NotFoundError, type ApprovalGrant, type ApprovalRecord, type ErrorInfo, type HaltReason, type RunStatus } from '../../core/index.js';
import { processAlive } from '../../runs/index.js';
import { storedApprovals } from './stored-approvals.js';
import type { ForgeRuntime, RunTaskResult } from '../../runs/task-runs.js';
import { endRefusedResume, type ResumeOptions } from '../../runs/resume-task.js';

/** An answer that cannot be given: no such request, already answered or used, or bound to another input. */
export class ApprovalAnswerError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'ApprovalAnswerError', message, hint });
  }
}

/** Approval requests, oldest first: the pending ones, or all of them. */
export function listApprovals(runtime: ForgeRuntime, options: { all?: boolean; runId?: string } = {}): Promise<ApprovalRecord[]> {
  return runtime.store.approvals.list({ ...(options.all === true ? {} : { statuses: ['pending'] }), ...(options.runId === undefined ? {} : { runId: options.runId }) });
}

export interface AnswerApprovalOptions {
  /** The run's id or a unique prefix of it. */
  readonly runId: string;
  readonly callId: string;
  readonly decision: 'approved' | 'denied';
  /** Required for a denial: the model is told it. */
  readonly reason?: string;
  /** When given, the answer applies only if the request's input digest starts with it (what the answerer saw). */
  readonly digest?: string;
  /** How the resumed run (when this process resumes it) is run. */
  readonly resume?: Omit<ResumeOptions, 'approvals'>;
  /** Go on with the run without waiting for it (a server answering a request); `resumed` is then null and `resuming` true. */
  readonly background?: boolean;
  /** With an approval: approve every later call of this tool in this run without asking (a recorded, revocable grant). */
  readonly always?: 'run';
  /** Who answers (an account id, `operator`, `cli`); kept with a grant. Default `cli`. */
  readonly answeredBy?: string;
}

export interface AnswerApprovalResult {
  readonly approval: ApprovalRecord;
  /** The "approve always" grant the answer made, when asked for. */
  readonly grant: ApprovalGrant | null;
  /** The run's result when this process resumed it (nobody else was waiting); null when its own process goes on with it. */
  readonly resumed: RunTaskResult | null;
  /** Whether the run went on: in this process (in the background when asked), or, scaled, on a worker. */
  readonly resuming: boolean;
  /**
   * Why the run could not go on after this answer (its model not configured, a tool of its set gone):
   * the run then ended `failed` (`interrupted`) with this reason, to be resumed once it is fixed. Null otherwise.
   */
  readonly resumeError: ErrorInfo | null;
}

/**
 * Answers one pending approval, once: bound to the run id, the call id and (with `digest`) the input the
 * answerer saw. A second answer, an answer to a call that never asked, or one for another input is
 * refused. Then the run goes on: its own process, when alive and waiting, sees the answer and resumes
 * it; otherwise this process resumes it from its checkpoint (a restart between request and answer is fine).
 */
export async function answerApproval(runtime: ForgeRuntime, given: AnswerApprovalOptions): Promise<AnswerApprovalResult> {
  const { store } = runtime;
  const options = { ...given, runId: (await runtime.runs.get(given.runId)).id };
  const existing = await store.approvals.get(options.runId, options.callId);
  if (existing === undefined) {
    const others = await store.approvals.list({ runId: options.runId, statuses: ['pending'] });
    throw new NotFoundError('approval request', `${options.runId} ${options.callId}`, others.length === 0 ? 'List pending requests with `forge approvals list`.' : `Run ${options.runId} waits on: ${others.map((other) => other.callId).join(', ')}.`);
  }
  if (options.digest !== undefined && !existing.inputDigest.startsWith(options.digest.toLowerCase())) {
    throw new ApprovalAnswerError(`The request for ${options.callId} is bound to input ${existing.inputDigest.slice(0, 12)}, not ${options.digest}.`, 'Check the call with `forge approvals list` and answer the input it shows.');
  }
  if (existing.status !== 'pending') throw new ApprovalAnswerError(`The request for ${options.callId} of run ${options.runId} is ${existing.status}; it can be answered once.`, 'List pending requests with `forge approvals list`.');
  if (existing.expiresAt !== null && Date.parse(existing.expiresAt) <= Date.now()) {
    await expireRun(runtime, options.runId);
    throw new ApprovalAnswerError(`The request for ${options.callId} expired at ${existing.expiresAt}; run ${options.runId} failed (approval_expired).`, 'Run the task again.');
  }
  if (options.always !== undefined && options.decision !== 'approved') throw new ApprovalAnswerError('"Approve always" goes with an approval, not a denial.', 'Deny without --always, or approve with it.');
  const answeredAt = new Date().toISOString();
  const seal = runtime.approvalSealer.sealAnswer({ ...existing, status: options.decision, answeredAt });
  const settled = await store.approvals.settle(options.runId, options.callId, { to: options.decision, reason: options.reason ?? null, answeredAt, seal });
  if (settled === undefined) throw new ApprovalAnswerError(`The request for ${options.callId} of run ${options.runId} was answered by someone else first.`, 'See `forge approvals list --all`.');
  const grant = options.always === undefined ? null : await grantAlways(runtime, settled, options.answeredBy ?? 'cli');
  const run = await runtime.runs.get(options.runId);
  // Embedded, a live owner (a terminal's `forge run`) polls for its answers and resumes the run itself.
  // Scaled, the worker that paused the run let it go: a resume is queued, and should a terminal still
  // wait for it, the first to claim the run resumes it (the other's claim fails; nothing runs twice).
  const waiter = runtime.mode === 'embedded' && run.owner !== null && run.owner.pid !== process.pid && processAlive(run.owner, runtime.runs.host);
  const stillPending = await store.approvals.list({ runId: options.runId, statuses: ['pending'] });
  const answered = { approval: settled, grant, resumed: null, resuming: false, resumeError: null };
  if (run.status !== 'waiting' || waiter || stillPending.length > 0) return answered;
  // Through the front door: here when embedded, on a worker when scaled; refused by the same checks either way.
  let resumed;
  try {
    resumed = await runtime.runs.submit({ kind: 'resume', run_id: options.runId }, { userId: run.userId }, { ...options.resume, approvals: storedApprovals(runtime) });
  } catch (error) {
    const refused = await endRefusedResume(runtime, options.runId, error);
    return refused.state === 'refused' ? { ...answered, resumeError: refused.error } : answered;
  }
  if (resumed.queued) {
    const resumeError = await workerResumeRefusal(runtime, options.runId);
    return { ...answered, resuming: resumeError === null, resumeError };
  }
  if (options.background === true) return { ...answered, resuming: true };
  return { ...answered, resumed: await resumed.result(), resuming: true };
}

/** How long an answer in the scaled mode waits to see a worker take the run's resume (or refuse it). */
const WORKER_RESUME_WAIT_MS = 10_000;

/**
 * Scaled: waits (bounded, checking the store) until a worker has taken the run's resume, and returns
 * the error of a resume the worker refused (the run then ended `failed`, `interrupted`, saying why);
 * null once the run goes on, or when no worker took it within the wait (it stays queued for one).
 */
async function workerResumeRefusal(runtime: ForgeRuntime, runId: string): Promise<ErrorInfo | null> {
  const deadline = Date.now() + WORKER_RESUME_WAIT_MS;
  for (;;) {
    const run = await runtime.runs.get(runId);
    if (run.status === 'failed' && run.haltReason === 'interrupted') {
      const end = (await runtime.store.events.list(runId)).findLast((event) => event.type === 'run-end');
      return end?.type === 'run-end' && end.error !== null ? end.error : { name: 'RunResumeError', message: run.error ?? 'The worker could not go on with the run.' };
    }
    if (run.status !== 'waiting' || Date.now() >= deadline) return null;
    await delay(100);
  }
}

/** Records "approve always for this tool in this run", signed, tied to the answer that chose it. */
async function grantAlways(runtime: ForgeRuntime, approval: ApprovalRecord, grantedBy: string): Promise<ApprovalGrant> {
  const unsealed = { id: `g_${randomUUID().replaceAll('-', '').slice(0, 16)}`, scope: `run:${approval.runId}`, tool: approval.tool, grantedBy, runId: approval.runId, callId: approval.callId, createdAt: new Date().toISOString() };
  return runtime.store.approvals.grant({ ...unsealed, seal: runtime.approvalSealer.sealGrant(unsealed) });
}

/** The "approve always" grants: standing ones (all with `revoked`), of one run when given. */
export function listGrants(runtime: ForgeRuntime, options: { runId?: string; revoked?: boolean } = {}): Promise<ApprovalGrant[]> {
  return runtime.store.approvals.grants({ ...(options.runId === undefined ? {} : { scopes: [`run:${options.runId}`] }), ...(options.revoked === true ? { revoked: true } : {}) });
}

/** Revokes a standing grant: the next call of its tool asks again. */
export async function revokeGrant(runtime: ForgeRuntime, id: string, revokedBy: string): Promise<ApprovalGrant> {
  const revoked = await runtime.store.approvals.revokeGrant(id, revokedBy);
  if (revoked !== undefined) return revoked;
  const known = (await runtime.store.approvals.grants({ revoked: true })).find((grant) => grant.id === id);
  if (known !== undefined) throw new ApprovalAnswerError(`Grant ${id} was revoked already (${known.revokedAt ?? ''}).`, 'See `forge approvals grants`.');
  throw new NotFoundError('approval grant', id, 'See the standing grants with `forge approvals grants`.');
}

/**
 * The waiting half of `--wait-for-approval`: waits (checking the store, since the answer comes from
 * another process) until every request the run waits on is answered, then resumes it here, again and
 * again while it pauses; a request that expires first ends the run `failed` (`approval_expired`).
 */
export async function waitAndResume(runtime: ForgeRuntime, first: RunTaskResult, options: { signal?: AbortSignal; pollMs?: number; onWaiting?: (pending: ApprovalRecord[]) => void; resume?: Omit<ResumeOptions, 'approvals'> } = {}): Promise<RunTaskResult> {
  let result = first;
  while (result.status === 'waiting') {
    const runId = result.run_id;
    let announced = false;
    for (;;) {
      const pending = await runtime.store.approvals.list({ runId, statuses: ['pending'] });
      if (pending.length === 0) break;
      if (!announced) options.onWaiting?.(pending);
      announced = true;
      if (pending.some((approval) => approval.expiresAt !== null && Date.parse(approval.expiresAt) <= Date.now())) {
        await expireRun(runtime, runId);
        const run = await runtime.runs.get(runId);
        return { ...result, status: run.status, halt_reason: run.haltReason ?? 'approval_expired', error: { name: 'ApprovalExpiredError', message: run.error ?? 'Nobody answered the approval in time.' } };
      }
      if (options.signal?.aborted === true) return result;
      await delay(options.pollMs ?? 250, undefined, options.signal === undefined ? {} : { signal: options.signal }).catch(() => undefined);
    }
    const resumed = await runtime.runs.execute({ kind: 'resume', run_id: runId }, { userId: null }, { ...options.resume, ...(options.signal === undefined ? {} : { signal: options.signal }), approvals: storedApprovals(runtime) });
    result = await resumed.result;
  }
  return result;
}

/** Ends a waiting run without running anything more: `run-end` with this status, appended to its log and store. */
async function endWaitingRun(runtime: ForgeRuntime, runId: string, end: { status: RunStatus; haltReason: HaltReason; error: ErrorInfo }, before?: (emit: (callId: string) => void) => void): Promise<void> {
  const handle = await runtime.runs.resume(runId, {
    execute: async (run) => {
      before?.((callId) => run.emitter.emit({ type: 'approval-answer', call_id: callId, decision: 'expired', reason: null }));
      return finishRun(run.emitter, run.meter, { status: end.status, haltReason: end.haltReason, answer: null, error: end.error, startedAt: performance.now() });
    },
  });
  await handle.result;
}

/** A waiting run whose request expired: the requests are marked expired and the run fails `approval_expired`. */
export async function expireRun(runtime: ForgeRuntime, runId: string): Promise<void> {
  const pending = await runtime.store.approvals.list({ runId, statuses: ['pending'] });
  const expired: string[] = [];
  for (const approval of pending) {
    if ((await runtime.store.approvals.settle(runId, approval.callId, { to: 'expired', reason: null, answeredAt: new Date().toISOString(), seal: null })) !== undefined) expired.push(approval.callId);
  }
  await endWaitingRun(
    runtime,
    runId,
    { status: 'failed', haltReason: 'approval_expired', error: { name: 'ApprovalExpiredError', message: `Nobody answered the approval of ${expired.join(', ') || 'its calls'} before it expired.`, hint: 'Run the task again, or raise FORGE_APPROVAL_TIMEOUT.' } },
    (emit) => expired.forEach(emit),
  );
}

/** Cancels a waiting run: its requests expire unanswered and it ends `cancelled`; none of its waiting calls runs. */
export async function cancelWaitingRun(runtime: ForgeRuntime, reference: string, reason = 'cancelled'): Promise<void> {
  const run = await runtime.runs.get(reference);
  const runId = run.id;
  if (run.status !== 'waiting') throw new ApprovalAnswerError(`Run ${runId} is ${run.status}; only a waiting run can be cancelled from another process.`, 'A running run is cancelled with Ctrl-C in its terminal.');
  const pending = await runtime.store.approvals.list({ runId, statuses: ['pending'] });
  for (const approval of pending) await runtime.store.approvals.settle(runId, approval.callId, { to: 'expired', reason, answeredAt: new Date().toISOString(), seal: null });
  await endWaitingRun(runtime, runId, { status: 'cancelled', haltReason: 'cancelled', error: { name: 'RunCancelledError', message: `The run was cancelled while it waited: ${reason}` } });
}

/** Ends every waiting run whose approval request expired (on open), and returns their ids. */
export async function expireWaitingRuns(runtime: ForgeRuntime): Promise<string[]> {
  const now = Date.now();
  const due = (await runtime.store.approvals.list({ statuses: ['pending'] })).filter((approval) => approval.expiresAt !== null && Date.parse(approval.expiresAt) <= now);
  const runs = [...new Set(due.map((approval) => approval.runId))];
  const ended: string[] = [];
  for (const runId of runs) {
    const run = await runtime.runs.get(runId);
    if (run.status !== 'waiting') continue;
    await expireRun(runtime, runId);
    ended.push(runId);
  }
  return ended;
}
