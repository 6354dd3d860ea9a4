import { ForgeError, type RunRecord, type RunSubmission } from '../core/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { QueuedRunSpec } from './run-service.js';

/**
 * A job whose payload disagrees with the run stored under its id (another account, another task or
 * conversation, a run that does not exist): forged, or written by something that is not Forge. A worker
 * runs nothing of it and leaves the stored run as it is; it is not retried.
 */
export class RunJobMismatchError extends ForgeError {
  readonly runId: string;
  readonly disagreements: readonly string[];
  constructor(runId: string, disagreements: readonly string[]) {
    super({
      name: 'RunJobMismatchError',
      message: `A job for run ${runId} was refused: ${disagreements.join('; ')}. Nothing of it ran, and the stored run is unchanged.`,
      hint: 'Only a Forge server queues runs: check who can write to the Redis the servers and workers share (FORGE_REDIS_URL needs a password off loopback).',
    });
    this.runId = runId;
    this.disagreements = disagreements;
  }
}

/** A queued run whose account or service key can no longer start runs (disabled or removed, revoked or expired). */
export class QueuedRunPrincipalError extends ForgeError {
  constructor(runId: string, why: string) {
    super({ name: 'QueuedRunPrincipalError', message: `Run ${runId} was not started: ${why} since it was queued.`, hint: 'Start it again with a live account or key.' });
  }
}

/**
 * What a queued run's job claims that its stored run does not say, checked before anything of the
 * payload is read further: the account (a job never chooses who it runs as) and, for a run with a
 * conversation, that conversation (a server always names it when it queues the run). Empty when they agree.
 */
export function payloadDisagreements(run: RunRecord, submission: RunSubmission): string[] {
  const found: string[] = [];
  if (submission.user_id !== run.userId) found.push(`it claims account ${submission.user_id ?? '(none)'}, the run is ${run.userId ?? "the operator's"}`);
  const { request } = submission;
  if (request.kind === 'agent_task' || request.kind === 'converge_task' || request.kind === 'agent_definition') {
    if ((request.conversation_id ?? null) !== run.conversationId) found.push(`it names conversation ${request.conversation_id ?? '(none)'}, the run continues ${run.conversationId ?? 'none'}`);
  }
  return found;
}

/**
 * Where a run prepared from a job's request (for the stored run's account) would differ from the run
 * stored when it was queued: its kind, task, conversation or agent version. Empty when they agree. The
 * model is not compared: a worker resolves the request's model with its own configuration.
 */
export function recordDisagreements(run: RunRecord, prepared: QueuedRunSpec): string[] {
  const found: string[] = [];
  if (prepared.kind !== run.kind) found.push(`it is a ${prepared.kind} run, the stored run a ${run.kind} run`);
  if (prepared.task !== run.task) found.push('its task is not the stored run\'s');
  if ((prepared.conversationId ?? null) !== run.conversationId) found.push('its conversation is not the stored run\'s');
  const agent = prepared.agent === undefined || prepared.agent === null ? null : `${prepared.agent.slug}@${prepared.agent.version}`;
  const storedAgent = run.agent === null ? null : `${run.agent.slug}@${run.agent.version}`;
  if (agent !== storedAgent) found.push(`it runs agent ${agent ?? '(none)'}, the stored run ${storedAgent ?? 'none'}`);
  return found;
}

/**
 * Who a queued run runs as: its stored account and service key, checked live again when a worker takes
 * it: an account disabled or removed, or a key revoked or expired, since the run was queued refuses it
 * (`QueuedRunPrincipalError`). A key's scopes were checked when it queued the run and never change.
 */
export async function storedRunPrincipal(runtime: ForgeRuntime, run: RunRecord): Promise<{ readonly userId: string | null; readonly apiKeyId: string | null }> {
  if (run.userId !== null && (await runtime.accounts.roleOf(run.userId)) === undefined) throw new QueuedRunPrincipalError(run.id, 'its account was disabled or removed');
  if (run.apiKeyId !== null) {
    const key = await runtime.store.accounts.getApiKey(run.apiKeyId);
    if (key === undefined || key.revokedAt !== null) throw new QueuedRunPrincipalError(run.id, 'the service key that queued it was revoked');
    if (key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now()) throw new QueuedRunPrincipalError(run.id, 'the service key that queued it expired');
  }
  return { userId: run.userId, apiKeyId: run.apiKeyId };
}
