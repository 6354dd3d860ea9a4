import { Job, type JobJsonRaw, type JobState as BullmqJobState, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ErrorInfo, JobOutcome, JobSnapshot, JobState } from '../../../core/index.js';

/**
 * What a BullMQ job's data holds for Forge: the job's Forge id (BullMQ's own id is `bullmqJobId(id)`),
 * the token of the enqueue that added it (it tells this job from an earlier or later one with the same
 * id), and the payload.
 */
export interface ForgeJobData {
  readonly id: string;
  readonly token: string;
  readonly payload?: unknown;
}

/** A job as read from Redis: BullMQ's view of it, its raw hash (Forge's own fields included) and its state. */
export interface StoredJob {
  readonly jobId: string;
  readonly job: Job<ForgeJobData>;
  readonly raw: Readonly<Record<string, string>>;
  readonly state: BullmqJobState;
}

/** One job: its Forge id and kind, its BullMQ id, and the token of the enqueue that added it. */
export interface JobIdentity {
  readonly id: string;
  readonly kind: string;
  readonly jobId: string;
  readonly token: string;
}

/** A job Forge took out of BullMQ after it ended (cancelled while waiting, or replaced by a new job with its id). */
interface EndedRecord {
  readonly snapshot: JobSnapshot;
  readonly outcome: JobOutcome;
}

/** Hash field of a job cancelled while active: the reason. Its running attempt ends it `cancelled`; it is never retried. */
const CANCEL_FIELD = 'forge:cancel';
/** Hash field with the last failed attempt's error, as `{ attempt, error }` (BullMQ keeps only the message). */
const ERROR_FIELD = 'forge:error';
/** How long Forge keeps the jobs it took out of BullMQ (`get`, `finished()`), in seconds. */
const ENDED_RECORD_TTL_SECONDS = 86_400;
/** BullMQ's reason for a job whose workers stopped holding it more often than `maxStalledCount`. */
const STALLED_LIMIT_REASON = 'job stalled more than allowable limit';

/** Marks a job cancelled unless it has ended (or is gone): KEYS job hash, completed, failed; ARGV field, reason, job id. */
const MARK_CANCELLED = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('ZSCORE', KEYS[2], ARGV[3]) or redis.call('ZSCORE', KEYS[3], ARGV[3]) then return 0 end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** Sets a field of a job's hash unless the job is gone (an orphan hash would outlive every cleanup): KEYS job hash; ARGV field, value. */
const SET_IF_PRESENT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/**
 * BullMQ's id for a Forge job id. BullMQ refuses ids that look like integers or contain `:`, so `%`,
 * `:` and `#` are percent-escaped and an id that is still an integer (or empty) gets a leading `#`; no
 * two Forge ids share a BullMQ id.
 */
export function bullmqJobId(id: string): string {
  const escaped = id.replace(/[%:#]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return escaped === '' || `${parseInt(escaped, 10)}` === escaped ? `#${escaped}` : escaped;
}

export function isEnded(state: BullmqJobState): state is 'completed' | 'failed' {
  return state === 'completed' || state === 'failed';
}

/**
 * Forge's reads and writes of its jobs in Redis, beside BullMQ's own: a job's state as Forge tells it
 * (a failed job marked cancelled is `cancelled`), its outcome, the cancel mark, the last error, and the
 * records of jobs Forge took out of BullMQ itself (kept a day).
 */
export class BullmqJobRecords {
  constructor(
    private readonly bull: Queue<ForgeJobData>,
    private readonly connection: Redis,
  ) {}

  /** The job with this BullMQ id, or undefined when BullMQ has none. */
  async read(jobId: string): Promise<StoredJob | undefined> {
    // The state first: a job's hash is final before it enters `completed` or `failed`.
    const state = await this.bull.getJobState(jobId);
    if (state === 'unknown') return undefined;
    const raw = await this.connection.hgetall(this.bull.toKey(jobId));
    if (raw['data'] === undefined) return undefined;
    return { jobId, job: Job.fromJSON<ForgeJobData>(this.bull, raw as unknown as JobJsonRaw, jobId), raw, state };
  }

  /**
   * How the job of `token` ended; undefined while it has not. A job no longer in BullMQ and not in
   * Forge's records ended long ago (BullMQ keeps the newest ended jobs only): its outcome is lost, and
   * says so as a failure.
   */
  async outcome(job: JobIdentity): Promise<JobOutcome | undefined> {
    const stored = await this.read(job.jobId);
    if (stored?.job.data.token === job.token) return outcomeOf(stored);
    const record = await this.endedRecord(job.token);
    if (record !== undefined) return record.outcome;
    return { id: job.id, kind: job.kind, state: 'failed', attempts: 0, error: { name: 'JobOutcomeLostError', message: `Job ${job.id} has ended, but the queue no longer keeps how.` } };
  }

  /** The job ended by Forge itself under this id (cancelled while waiting), if it is still kept. */
  async cancelledSnapshot(jobId: string): Promise<JobSnapshot | undefined> {
    const token = await this.connection.get(this.cancelledKey(jobId));
    return token === null ? undefined : (await this.endedRecord(token))?.snapshot;
  }

  /** Marks the job cancelled; false when there is no such job or it has ended. The first reason given stays. */
  async markCancelled(jobId: string, reason: string): Promise<boolean> {
    const marked = await this.connection.eval(MARK_CANCELLED, 3, this.bull.toKey(jobId), this.bull.keys['completed']!, this.bull.keys['failed']!, CANCEL_FIELD, reason, jobId);
    return marked === 1;
  }

  /** The reason the job was cancelled with, or undefined when it was not. */
  async cancelReason(jobId: string): Promise<string | undefined> {
    return (await this.connection.hget(this.bull.toKey(jobId), CANCEL_FIELD)) ?? undefined;
  }

  /** Keeps the error of the attempt that just failed, whole (BullMQ keeps its message only). */
  async recordError(jobId: string, attempt: number, error: ErrorInfo): Promise<void> {
    await this.connection.eval(SET_IF_PRESENT, 1, this.bull.toKey(jobId), ERROR_FIELD, JSON.stringify({ attempt, error }));
  }

  /**
   * Takes a marked job that has not started out of BullMQ, so it ends `cancelled` at once. False when
   * BullMQ would not remove it (a worker holds it): its running attempt ends it instead.
   */
  async takeOutCancelled(stored: StoredJob): Promise<boolean> {
    const { job } = stored;
    const outcome: JobOutcome = { id: job.data.id, kind: job.name, state: 'cancelled', attempts: job.attemptsStarted, reason: stored.raw[CANCEL_FIELD] ?? 'cancelled' };
    // Written first, so whoever finds the job gone finds its record.
    await this.writeEndedRecord(job.data.token, { snapshot: snapshotOf(stored, 'cancelled'), outcome });
    await this.connection.set(this.cancelledKey(stored.jobId), job.data.token, 'EX', ENDED_RECORD_TTL_SECONDS);
    if ((await this.bull.remove(stored.jobId)) === 1) return true;
    await this.connection.del(this.endedKey(job.data.token), this.cancelledKey(stored.jobId));
    return false;
  }

  /** Takes an ended job out of BullMQ, its outcome kept for whoever still waits on it, so its id can be enqueued again. */
  async replaceEnded(stored: StoredJob): Promise<void> {
    const outcome = outcomeOf(stored);
    if (outcome === undefined) throw new Error(`Job ${stored.jobId} has not ended; it cannot be replaced.`);
    await this.writeEndedRecord(stored.job.data.token, { snapshot: snapshotOf(stored), outcome });
    await this.bull.remove(stored.jobId);
  }

  /** The record of the job of `token`, if Forge took it out of BullMQ within the last day. */
  async endedRecord(token: string): Promise<EndedRecord | undefined> {
    const text = await this.connection.get(this.endedKey(token));
    return text === null ? undefined : (JSON.parse(text) as EndedRecord);
  }

  private async writeEndedRecord(token: string, record: EndedRecord): Promise<void> {
    await this.connection.set(this.endedKey(token), JSON.stringify(record), 'EX', ENDED_RECORD_TTL_SECONDS);
  }

  // BullMQ's job ids never hold `:`, so these keys never meet a job's own (`<id>`, `<id>:lock`, …).
  private endedKey(token: string): string {
    return this.bull.toKey(`forge:ended:${token}`);
  }

  private cancelledKey(jobId: string): string {
    return this.bull.toKey(`forge:cancelled:${jobId}`);
  }
}

/** The job as `JobQueue.get` reports it. */
export function snapshotOf(stored: StoredJob, state: JobState = forgeState(stored)): JobSnapshot {
  const { job } = stored;
  return { id: job.data.id, kind: job.name, payload: job.data.payload, state, attempts: job.attemptsStarted };
}

function forgeState(stored: StoredJob): JobState {
  switch (stored.state) {
    case 'active':
    case 'completed':
      return stored.state;
    case 'failed':
      return stored.raw[CANCEL_FIELD] === undefined ? 'failed' : 'cancelled';
    default:
      return 'waiting';
  }
}

/** How the job ended (a failure of a job marked cancelled is its cancellation); undefined while it has not. */
function outcomeOf(stored: StoredJob): JobOutcome | undefined {
  const { job, raw } = stored;
  const base = { id: job.data.id, kind: job.name, attempts: job.attemptsStarted };
  if (stored.state === 'completed') return { ...base, state: 'completed', result: job.returnvalue };
  if (stored.state !== 'failed') return undefined;
  const reason = raw[CANCEL_FIELD];
  if (reason !== undefined) return { ...base, state: 'cancelled', reason };
  return { ...base, state: 'failed', error: failureOf(stored) };
}

function failureOf(stored: StoredJob): ErrorInfo {
  const { job, raw } = stored;
  const recorded = raw[ERROR_FIELD] === undefined ? undefined : (JSON.parse(raw[ERROR_FIELD]) as { attempt: number; error: ErrorInfo });
  // The record is of the last attempt unless that attempt failed before the handler ran (a stall limit).
  if (recorded !== undefined && recorded.attempt === job.attemptsStarted) return recorded.error;
  if (job.failedReason === STALLED_LIMIT_REASON) {
    return { name: 'JobStalledError', message: `The workers running job ${job.data.id} stopped holding it (killed, or blocked past the lock duration) more often than maxStalledCount allows; it is not delivered again.` };
  }
  return { name: 'Error', message: job.failedReason || 'The job failed.' };
}
