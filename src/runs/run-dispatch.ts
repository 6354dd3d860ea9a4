import { setTimeout as delay } from 'node:timers/promises';
import { ForgeError, NotFoundError, type AgentPin, type RunRecord } from '../core/index.js';
import { RunNotResumableError } from './index.js';
import { agentServiceOf } from './agent-service-of.js';
import { cancelWaitingRun } from '../policy/approvals/approval-answers.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { runCredentials } from './run-credentials.js';
import { validRunRules } from './run-policy.js';
import { RUN_JOB, RUN_JOB_RETRY, SKILL_JOB, queueResume, type RunJobPayload, type SkillJobPayload } from './run-jobs-queue.js';
import { runSkill, type RunSkillResult } from './skill-runs.js';
import { startRequest, type RunRequest } from './run-requests.js';
import { beginResume } from './resume-task.js';
import { resolveRuntimeModel } from './runtime-model.js';

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
 * Starts a run the API asked for. Embedded, it runs in this process at once. Scaled, it is checked here
 * (model, tools, rules, agent version: what is wrong is refused before anything exists), recorded
 * `queued` with its conversation, and queued for a worker, whose job carries the request with the
 * agent's version pinned; the answer is its id either way, and its events stream from any server.
 */
export async function dispatchRun(runtime: ForgeRuntime, request: RunRequest): Promise<{ readonly runId: string }> {
  if (runtime.mode === 'embedded') {
    const handle = await startRequest(runtime, request);
    handle.result.catch(() => undefined);
    // A start its quota refuses is answered as a refusal, not with the id of a run that never was.
    await handle.started;
    return { runId: handle.runId };
  }
  const queued = await queueRun(runtime, request);
  return { runId: queued.id };
}

async function queueRun(runtime: ForgeRuntime, request: RunRequest): Promise<RunRecord> {
  const { store } = runtime;
  let agent: AgentPin | undefined;
  let model = request.model;
  let converge = request.kind === 'task' && request.converge === true;
  if (request.kind === 'agent-task') {
    const { pin, definition } = await (await agentServiceOf(runtime)).forRun(request.agent);
    agent = pin;
    model ??= definition.model.slug;
    converge = definition.mode === 'converge';
  } else {
    if (request.tools !== undefined) runtime.registry.snapshot(request.tools);
    if (request.policyRules !== undefined) validRunRules(request.policyRules);
  }
  const resolved = await resolveRuntimeModel({ config: runtime.config, credentials: runCredentials(runtime, request.userId) }, model, model === undefined ? 'FORGE_MODEL' : '--model');
  const conversationId = request.conversationId ?? (await store.conversations.create({ title: runtime.redactor.redactText(request.task).slice(0, 80), userId: request.userId ?? null })).id;
  if (request.conversationId !== undefined && (await store.conversations.get(conversationId)) === undefined) {
    throw new NotFoundError('conversation', conversationId, 'Use the conversation_id of an earlier run, or leave it out to start a new conversation.');
  }
  const run = await runtime.runs.enqueue({
    kind: converge ? 'converge' : 'agent',
    task: runtime.redactor.redactText(request.task),
    model: resolved.slug,
    conversationId,
    userId: request.userId ?? null,
    apiKeyId: request.apiKeyId ?? null,
    ...(agent === undefined ? {} : { agent }),
  });
  const payload: RunJobPayload = { runId: run.id, request: { ...request, conversationId, ...(agent === undefined ? {} : { agent: `${agent.slug}@${agent.version}` }) } as RunRequest };
  try {
    await runtime.queue.enqueue(RUN_JOB, payload, { id: run.id, retry: RUN_JOB_RETRY });
  } catch (error) {
    // A run whose job was never queued would wait for ever: it fails now, saying why.
    await runtime.runs.failQueued(run.id, error);
    throw error;
  }
  return run;
}

/**
 * Goes on with a waiting or interrupted run from its last checkpoint: in this process when embedded, on
 * a worker when scaled (checked here first, so what cannot go on is refused now). One resume job per run
 * at a time: asking again while one waits adds nothing.
 */
export async function dispatchResume(runtime: ForgeRuntime, reference: string): Promise<{ readonly runId: string }> {
  if (runtime.mode === 'embedded') {
    const { handle } = await beginResume(runtime, reference);
    handle.result.catch(() => undefined);
    return { runId: handle.runId };
  }
  const run = await runtime.runs.get(reference);
  if (run.status !== 'waiting' && !(run.status === 'failed' && run.haltReason === 'interrupted')) {
    throw new RunNotResumableError(run.id, `it is ${run.status}${run.haltReason === null ? '' : ` (${run.haltReason})`}`, 'Only a run that waits for an approval, or one whose process ended before it finished, can be resumed.');
  }
  if ((await runtime.store.runStates.get(run.id)) === undefined) throw new RunNotResumableError(run.id, 'it has no checkpoint', 'Run the task again.');
  await queueResume(runtime, run.id);
  return { runId: run.id };
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

/** A replay's outcome as it crosses from a worker (JSON): a result, or the error that ended it. */
class WorkerReplayError extends ForgeError {
  constructor(info: { name: string; message: string; hint?: string }) {
    super({ name: info.name, message: info.message, ...(info.hint === undefined ? {} : { hint: info.hint }) });
  }
}

/**
 * Replays a stored skill and waits for its result (the API's skill runs and the marketplace's customer
 * runs): in this process when embedded; scaled, on a worker, through the queue, the caller waiting for
 * the job's outcome (a cancelled `signal` cancels the job, and the replay with it). Refusals (an
 * input that does not validate) come back as the same errors either way.
 */
export async function dispatchSkillReplay(runtime: ForgeRuntime, request: SkillJobPayload, signal?: AbortSignal): Promise<RunSkillResult> {
  if (runtime.mode === 'embedded') return runSkill(runtime, { ...request, ...(signal === undefined ? {} : { signal }) });
  const job = await runtime.queue.enqueue(SKILL_JOB, request);
  const onAbort = () => void runtime.queue.cancel(job.id, 'the caller went away');
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await job.finished();
    if (outcome.state === 'completed') return outcome.result as RunSkillResult;
    if (outcome.state === 'failed') throw new WorkerReplayError(outcome.error);
    throw new WorkerReplayError({ name: 'RunCancelledError', message: `The replay was cancelled: ${outcome.reason}` });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
