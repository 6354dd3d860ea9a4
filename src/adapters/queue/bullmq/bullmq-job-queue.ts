import { randomUUID } from 'node:crypto';
import { Queue, type JobsOptions } from 'bullmq';
import {
  ConfigurationError,
  JobQueueClosedError,
  type EnqueueOptions,
  type EnqueuedJob,
  type JobHandler,
  type JobQueue,
  type JobSnapshot,
  type JobWorker,
  type JobWorkerOptions,
} from '../../../core/index.js';
import { openRedisClients, type RedisClients, type RedisConnectionOptions } from '../../redis/index.js';
import { bullmqErrorReport } from './bullmq-error-report.js';
import { BullmqJobOutcomes } from './bullmq-job-outcomes.js';
import { BullmqJobRecords, bullmqJobId, isEnded, snapshotOf, type ForgeJobData, type JobIdentity } from './bullmq-job-records.js';
import { BullmqJobWorker, type BullmqWorkerHost } from './bullmq-job-worker.js';
import { checkConcurrency, checkRetry } from '../job-options.js';

export type BullmqJobQueueOptions = RedisConnectionOptions & {
  /** The BullMQ queue's name (no `:`); every process of one deployment uses the same. Default `forge-jobs`. */
  readonly name?: string;
  /** Starts every Redis key and channel of the queue (`<prefix>:<name>:…`); default `forge`. */
  readonly prefix?: string;
  /** How long a worker's hold on a job lasts unless renewed (it renews it at half that); default 30 s. */
  readonly lockDurationMs?: number;
  /** How often workers look for jobs whose hold expired (their worker died); default 30 s. */
  readonly stalledIntervalMs?: number;
  /** Re-deliveries a job gets after its worker died; once more and it ends `failed` (`JobStalledError`). Default 1. */
  readonly maxStalledCount?: number;
  /** Completed and failed jobs BullMQ keeps, each, newest first (for `get`); default 1,000. */
  readonly keepEnded?: number;
};

/** Times the enqueue of an id that keeps changing under it is tried before it gives up. */
const ENQUEUE_ROUNDS = 5;

/**
 * The scaled mode's durable `JobQueue`, on BullMQ: waiting jobs live in Redis, so any process's
 * worker takes them, and they outlive the process that enqueued them. Beyond the contract:
 *
 * - Re-delivery. A worker renews its hold on each job it runs (every `lockDurationMs / 2`). When the
 *   process dies (SIGKILL, a lost machine) the hold expires, and within about `lockDurationMs + 2 ×
 *   stalledIntervalMs` another worker takes the job again, ahead of the jobs waiting, with `attempt` one
 *   higher and `redelivered: true` (true for the job's later attempts too). A re-delivery does not use
 *   up a retry; after `maxStalledCount` of them the next stall ends the job `failed` (`JobStalledError`).
 *   A worker whose event loop is blocked past the lock loses the job the same way while its attempt
 *   still runs, so the job may run twice at once: delivery is at least once.
 * - Cancellation, from any process. `cancel` marks the job in Redis (the first reason stays) and
 *   publishes `{ jobId, reason }` on `<prefix>:<name>:forge:cancel`, which every worker follows: the
 *   process running the job aborts that attempt's signal with the reason. A job not held by a worker
 *   (waiting, in a backoff, or held by a dead one) is taken out of BullMQ at once and ends `cancelled`;
 *   a marked job that is re-delivered ends `cancelled` without running its handler. An active
 *   cancelled attempt that throws ends the job `cancelled`; one that resolves ends it `completed`.
 * - `finished()` settles in every process holding the job's handle, whichever process ran it (see
 *   `BullmqJobOutcomes`); a `finished()` still pending when this queue closes stays pending here.
 * - Ids. The job's BullMQ id is its Forge id, escaped where BullMQ refuses it (`bullmqJobId`). An
 *   ended job is taken out of BullMQ when its id is enqueued again; its outcome is kept a day for the
 *   handles still waiting on it, as is the record of a job cancelled while waiting (for `get`).
 * - Results are JSON as BullMQ stores them: a handler that resolves `undefined` ends with result `null`.
 * - `close` closes this process's workers (their attempts settle first) and refuses new jobs; waiting
 *   jobs stay in Redis for the next worker. It closes the connections it opened (from `url`), never
 *   the caller's.
 */
export class BullmqJobQueue implements JobQueue {
  private readonly bull: Queue<ForgeJobData>;
  private readonly records: BullmqJobRecords;
  private readonly outcomes: BullmqJobOutcomes;
  private readonly host: BullmqWorkerHost;
  private readonly workers = new Set<BullmqJobWorker>();
  private readonly jobOptions: JobsOptions;
  private closing: Promise<void> | undefined;

  /** Connects (a `url` within its connect timeout, else `RedisUnavailableError`) and opens the queue. */
  static async open(options: BullmqJobQueueOptions): Promise<BullmqJobQueue> {
    const name = options.name ?? 'forge-jobs';
    if (name === '' || name.includes(':')) throw new ConfigurationError('name', `must be a queue name without ":", got "${name}".`);
    const settings = {
      lockDurationMs: wholeNumber('lockDurationMs', options.lockDurationMs ?? 30_000, 1),
      stalledIntervalMs: wholeNumber('stalledIntervalMs', options.stalledIntervalMs ?? 30_000, 1),
      maxStalledCount: wholeNumber('maxStalledCount', options.maxStalledCount ?? 1, 0),
      keepEnded: wholeNumber('keepEnded', options.keepEnded ?? 1_000, 0),
    };
    const clients = await openRedisClients(options);
    if (clients.connection.options.maxRetriesPerRequest !== null) {
      await clients.close();
      throw new ConfigurationError('connection', 'must be opened with maxRetriesPerRequest: null, as BullMQ requires.', 'Open it with connectRedis, or pass { maxRetriesPerRequest: null } to ioredis.');
    }
    const queue = new BullmqJobQueue(clients, name, options.prefix ?? 'forge', settings);
    await queue.bull.waitUntilReady();
    return queue;
  }

  private constructor(
    private readonly clients: RedisClients,
    name: string,
    prefix: string,
    settings: { lockDurationMs: number; stalledIntervalMs: number; maxStalledCount: number; keepEnded: number },
  ) {
    const report = bullmqErrorReport(`job queue ${prefix}:${name}`);
    this.bull = new Queue<ForgeJobData>(name, { connection: clients.connection, prefix });
    this.bull.on('error', report);
    this.records = new BullmqJobRecords(this.bull, clients.connection);
    this.outcomes = new BullmqJobOutcomes(this.bull, clients.connection, this.records, report);
    this.jobOptions = { removeOnComplete: { count: settings.keepEnded }, removeOnFail: { count: settings.keepEnded } };
    this.host = {
      name,
      prefix,
      connection: clients.connection,
      subscriber: clients.subscriber,
      records: this.records,
      cancelChannel: this.bull.toKey('forge:cancel'),
      ...settings,
      counts: () => this.counts(),
      attemptEnded: (jobId) => this.outcomes.readJob(jobId),
      forget: (worker) => this.workers.delete(worker),
      report,
    };
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueuedJob> {
    if (this.closing !== undefined) throw new JobQueueClosedError(kind);
    if (options.retry !== undefined) checkRetry(options.retry);
    const id = options.id ?? randomUUID();
    const jobId = bullmqJobId(id);
    const data: ForgeJobData = { id, token: randomUUID(), payload };
    const jobOptions: JobsOptions = {
      ...this.jobOptions,
      jobId,
      attempts: options.retry?.attempts ?? 1,
      ...(options.retry === undefined ? {} : { backoff: { type: options.retry.backoff.type, delay: options.retry.backoff.delayMs } }),
    };
    // Listening first: this job's end cannot happen before this process hears of job ends.
    await this.outcomes.listen();
    for (let round = 0; round < ENQUEUE_ROUNDS; round += 1) {
      // BullMQ adds nothing when a job has the id already, so what is stored afterwards says which case this was.
      await this.bull.add(kind, data, jobOptions);
      const stored = await this.records.read(jobId);
      if (stored?.job.data.token === data.token) return this.handle({ id, kind, jobId, token: data.token }, false);
      // Added, then already cancelled or replaced by another process: still this enqueue's job.
      if ((await this.records.endedRecord(data.token)) !== undefined) return this.handle({ id, kind, jobId, token: data.token }, false);
      if (stored === undefined) continue;
      if (!isEnded(stored.state)) return this.handle({ id, kind: stored.job.name, jobId, token: stored.job.data.token }, true);
      await this.records.replaceEnded(stored);
    }
    throw new Error(`Job ${id} could not be enqueued: its id kept being enqueued and ended by other processes meanwhile.`);
  }

  work(handler: JobHandler, options: JobWorkerOptions): JobWorker {
    checkConcurrency(options.concurrency);
    if (this.closing !== undefined) throw new JobQueueClosedError('worker');
    const worker = new BullmqJobWorker(this.host, handler, options.concurrency);
    this.workers.add(worker);
    return worker;
  }

  async get(id: string): Promise<JobSnapshot | undefined> {
    const jobId = bullmqJobId(id);
    const stored = await this.records.read(jobId);
    return stored === undefined ? this.records.cancelledSnapshot(jobId) : snapshotOf(stored);
  }

  async counts(): Promise<{ waiting: number; active: number }> {
    const counts = await this.bull.getJobCounts('active', 'wait', 'paused', 'delayed', 'prioritized', 'waiting-children');
    const { active = 0, ...waiting } = counts;
    return { waiting: Object.values(waiting).reduce((sum, count) => sum + count, 0), active };
  }

  async cancel(id: string, reason: string): Promise<boolean> {
    const jobId = bullmqJobId(id);
    if (!(await this.records.markCancelled(jobId, reason))) return false;
    await this.clients.connection.publish(this.host.cancelChannel, JSON.stringify({ jobId, reason }));
    const stored = await this.records.read(jobId);
    // A job no worker holds is taken out now; one a live worker holds ends through its aborted attempt.
    if (stored !== undefined && !isEnded(stored.state)) await this.records.takeOutCancelled(stored);
    return true;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.workers].map((worker) => worker.close()));
      await this.outcomes.close();
      await this.bull.close();
      await this.clients.close();
    })();
    return this.closing;
  }

  private handle(job: JobIdentity, deduplicated: boolean): EnqueuedJob {
    return { id: job.id, deduplicated, finished: this.outcomes.watch(job) };
  }
}

function wholeNumber(option: string, value: number, minimum: number): number {
  if (!Number.isInteger(value) || value < minimum) throw new ConfigurationError(option, `must be a whole number ≥ ${minimum}, got ${value}.`);
  return value;
}
