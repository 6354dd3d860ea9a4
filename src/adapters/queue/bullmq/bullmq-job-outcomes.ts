import { QueueEvents, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobOutcome } from '../../../core/index.js';
import type { BullmqJobRecords, ForgeJobData, JobIdentity } from './bullmq-job-records.js';

/** How often the jobs someone awaits are read again, in case an event was missed (a trimmed event stream). */
const POLL_MS = 2_000;

interface Watch extends JobIdentity {
  /** `finished()` was called: the job is read again every POLL_MS until it ends. */
  awaited: boolean;
  readonly outcome: Promise<JobOutcome>;
  readonly settle: (outcome: JobOutcome) => void;
}

/**
 * Settles `finished()` for jobs that end in any process. Every job this process enqueued (or found
 * deduplicated) is watched from then on: BullMQ's event stream (one `QueueEvents` reader, started by
 * `listen` before the first job is added, from the stream's end at that moment) says when a job
 * completes, fails or is removed, and the job is then read from Redis; a job whose `finished()` someone
 * awaits is also read when awaited and every two seconds after, so a missed event only delays it.
 *
 * `close` waits for the reads under way (so a job this process's worker just finished settles) and
 * stops reading: a `finished()` still pending then stays pending, since its job lives on in Redis for
 * another process to run and report.
 */
export class BullmqJobOutcomes {
  /** Unsettled watches by token. */
  private readonly watches = new Map<string, Watch>();
  /** The same, by BullMQ id (an id's earlier job may still be awaited when a new one is added). */
  private readonly byJobId = new Map<string, Set<Watch>>();
  private readonly reads = new Set<Promise<void>>();
  /** Unsettled watches whose `finished()` was called: while there are any, they are read every POLL_MS. */
  private awaited = 0;
  private events: Promise<QueueEvents> | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly bull: Queue<ForgeJobData>,
    private readonly connection: Redis,
    private readonly records: BullmqJobRecords,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Resolves once every job end from now on reaches this process. */
  async listen(): Promise<void> {
    this.events ??= this.openEvents().catch((error: unknown) => {
      this.events = undefined;
      throw error;
    });
    await this.events;
  }

  /** Watches the job (once per token) and returns its `finished()`. */
  watch(job: JobIdentity): () => Promise<JobOutcome> {
    const watch = this.watches.get(job.token) ?? this.add(job);
    return () => {
      if (!watch.awaited && this.watches.get(watch.token) === watch) {
        watch.awaited = true;
        this.awaited += 1;
        this.poll ??= setInterval(() => this.readAwaited(), POLL_MS).unref();
        this.read(watch);
      }
      return watch.outcome;
    };
  }

  /** Something happened to the job with this BullMQ id (it ended here, or an event said so): read it. */
  readJob(jobId: string): void {
    for (const watch of this.byJobId.get(jobId) ?? []) this.read(watch);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    while (this.reads.size > 0) await Promise.all(this.reads);
    this.watches.clear();
    this.byJobId.clear();
    const events = await this.events?.catch(() => undefined);
    await events?.close();
  }

  private add(job: JobIdentity): Watch {
    let settle!: (outcome: JobOutcome) => void;
    const outcome = new Promise<JobOutcome>((resolve) => (settle = resolve));
    const watch: Watch = { ...job, awaited: false, outcome, settle };
    this.watches.set(job.token, watch);
    const sameId = this.byJobId.get(job.jobId);
    if (sameId === undefined) this.byJobId.set(job.jobId, new Set([watch]));
    else sameId.add(watch);
    return watch;
  }

  private async openEvents(): Promise<QueueEvents> {
    const [newest] = await this.connection.xrevrange(this.bull.keys['events']!, '+', '-', 'COUNT', 1);
    const events = new QueueEvents(this.bull.name, { connection: this.connection, prefix: this.bull.opts.prefix!, lastEventId: newest?.[0] ?? '0-0' });
    events.on('error', this.report);
    for (const name of ['completed', 'failed', 'removed'] as const) events.on(name, ({ jobId }: { jobId: string }) => this.readJob(jobId));
    await events.waitUntilReady();
    return events;
  }

  private forget(watch: Watch): void {
    this.watches.delete(watch.token);
    const sameId = this.byJobId.get(watch.jobId);
    sameId?.delete(watch);
    if (sameId?.size === 0) this.byJobId.delete(watch.jobId);
    if (watch.awaited) this.awaited -= 1;
    if (this.awaited === 0) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
  }

  private readAwaited(): void {
    for (const watch of this.watches.values()) if (watch.awaited) this.read(watch);
  }

  private read(watch: Watch): void {
    if (this.closed) return;
    const reading = this.records.outcome(watch).then(
      (outcome) => {
        if (outcome === undefined || this.watches.get(watch.token) !== watch) return;
        this.forget(watch);
        watch.settle(outcome);
      },
      (error: unknown) => {
        if (!this.closed) this.report(error);
      },
    );
    const tracked = reading.finally(() => this.reads.delete(tracked));
    this.reads.add(tracked);
  }
}
