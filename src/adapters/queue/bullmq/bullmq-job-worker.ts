import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describeError, type ActiveJob, type JobHandler, type JobWorker } from '../../../core/index.js';
import type { RedisSubscriber } from '../../redis/index.js';
import type { BullmqJobRecords, ForgeJobData } from './bullmq-job-records.js';

/** How often `drain` counts the queue's jobs when none of this worker's attempts has ended meanwhile. */
const DRAIN_POLL_MS = 100;

/** What a worker needs of its queue. */
export interface BullmqWorkerHost {
  readonly name: string;
  readonly prefix: string;
  readonly connection: Redis;
  readonly subscriber: RedisSubscriber;
  readonly records: BullmqJobRecords;
  /** The pub/sub channel `cancel` publishes `{ jobId, reason }` on. */
  readonly cancelChannel: string;
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  readonly maxStalledCount: number;
  counts(): Promise<{ readonly waiting: number; readonly active: number }>;
  /** An attempt of the job with this BullMQ id ended here. */
  attemptEnded(jobId: string): void;
  forget(worker: BullmqJobWorker): void;
  report(error: unknown): void;
}

/**
 * One BullMQ worker running `handler`. It takes jobs only once it follows the queue's cancel channel,
 * so no cancellation of an attempt it runs can pass unheard; a cancel message aborts the signal of the
 * attempt running here, if any (every process's workers hear every message).
 *
 * An attempt whose job is already marked cancelled (it was re-delivered after its worker died) fails
 * at once without running the handler. A handler that throws after its job was cancelled ends the job
 * `cancelled`, never retried (BullMQ's `UnrecoverableError`); any other throw keeps its error whole in
 * the job and leaves retrying to BullMQ's attempts and backoff.
 */
export class BullmqJobWorker implements JobWorker {
  private readonly worker: Worker<ForgeJobData>;
  private readonly started: Promise<void>;
  private stopFollowing: (() => Promise<void>) | undefined;
  private closing: Promise<void> | undefined;
  private readonly activityWaiters: (() => void)[] = [];

  constructor(
    private readonly host: BullmqWorkerHost,
    private readonly handler: JobHandler,
    concurrency: number,
  ) {
    // Three declared parameters: BullMQ hands a processor an abort signal only when it takes one.
    const processor = (job: Job<ForgeJobData>, _token: string | undefined, signal: AbortSignal | undefined) => this.attempt(job, signal ?? new AbortController().signal);
    this.worker = new Worker<ForgeJobData>(host.name, processor, {
      connection: host.connection,
      prefix: host.prefix,
      concurrency,
      autorun: false,
      lockDuration: host.lockDurationMs,
      stalledInterval: host.stalledIntervalMs,
      maxStalledCount: host.maxStalledCount,
    });
    this.worker.on('error', host.report);
    const ended = (job: Job<ForgeJobData> | undefined) => {
      if (job?.id !== undefined) host.attemptEnded(job.id);
      for (const wake of this.activityWaiters.splice(0)) wake();
    };
    this.worker.on('completed', ended);
    this.worker.on('failed', ended);
    this.started = host.subscriber.subscribe(host.cancelChannel, (message) => this.onCancel(message)).then((stop) => {
      this.stopFollowing = stop;
      if (this.closing === undefined) this.worker.run().catch(host.report);
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.started.catch(this.host.report);
      await this.worker.close();
      await this.stopFollowing?.();
      this.host.forget(this);
    })();
    return this.closing;
  }

  async drain(): Promise<void> {
    while (this.closing === undefined) {
      const { waiting, active } = await this.host.counts();
      if (waiting + active === 0) break;
      await this.activity();
    }
    await this.close();
  }

  private async attempt(job: Job<ForgeJobData>, signal: AbortSignal): Promise<unknown> {
    const jobId = job.id!;
    const cancelled = await this.host.records.cancelReason(jobId);
    if (cancelled !== undefined) throw new UnrecoverableError(`cancelled: ${cancelled}`);
    const active: ActiveJob = { id: job.data.id, kind: job.name, payload: job.data.payload, attempt: job.attemptsStarted, redelivered: job.stalledCounter > 0, signal };
    try {
      const result = await this.handler(active);
      // A result that is not JSON fails the attempt here, as on the in-process queue.
      JSON.stringify(result);
      return result;
    } catch (error) {
      const reason = await this.host.records.cancelReason(jobId);
      if (reason !== undefined) throw new UnrecoverableError(`cancelled: ${reason}`);
      await this.host.records.recordError(jobId, job.attemptsStarted, describeError(error));
      throw error instanceof Error ? error : new Error(describeError(error).message);
    }
  }

  private onCancel(message: string): void {
    let request: { jobId?: unknown; reason?: unknown };
    try {
      request = JSON.parse(message) as typeof request;
    } catch {
      return;
    }
    if (typeof request.jobId === 'string' && typeof request.reason === 'string') this.worker.cancelJob(request.jobId, request.reason);
  }

  /** Resolves when an attempt of this worker ends, or after DRAIN_POLL_MS. */
  private activity(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const index = this.activityWaiters.indexOf(wake);
        if (index >= 0) this.activityWaiters.splice(index, 1);
        resolve();
      };
      const timer = setTimeout(wake, DRAIN_POLL_MS);
      this.activityWaiters.push(wake);
    });
  }
}
