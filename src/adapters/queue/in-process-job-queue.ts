import { randomUUID } from 'node:crypto';
import {
  JobQueueClosedError,
  describeError,
  type EnqueueOptions,
  type ActiveJob,
  type EnqueuedJob,
  type JobHandler,
  type JobOutcome,
  type JobQueue,
  type JobRetry,
  type JobSnapshot,
  type JobState,
  type JobWorker,
  type JobWorkerOptions,
} from '../../core/index.js';
import { checkConcurrency, checkRetry } from './job-options.js';

export interface InProcessJobQueueOptions {
  /** Ended jobs `get` still answers for, newest kept; default 1,000. */
  readonly keepEnded?: number;
}

type AttemptResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

interface Job {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  readonly retry: JobRetry | undefined;
  state: Extract<JobState, 'waiting' | 'active'>;
  attempts: number;
  /** The active attempt's cancel switch. */
  controller: AbortController | undefined;
  /** Set while the job waits out a backoff. */
  backoff: NodeJS.Timeout | undefined;
  cancelReason: string | undefined;
  readonly outcome: Promise<JobOutcome>;
  settle(outcome: JobOutcome): void;
}

/**
 * The embedded `JobQueue`: jobs live in this process's memory, so a job waiting when the process ends
 * is gone (close ends such jobs `cancelled` rather than leave them pending). Payloads and results are
 * copied through JSON on the way in and out, as a queue that crosses processes must, so code that works
 * here does not break on a durable queue.
 */
export class InProcessJobQueue implements JobQueue {
  /** Every job waiting or active, by id. */
  private readonly jobs = new Map<string, Job>();
  /** Jobs ready to start, oldest first (a job waiting out a backoff is not here yet). */
  private readonly ready: Job[] = [];
  private readonly ended = new Map<string, JobSnapshot>();
  private readonly workers = new Set<InProcessJobWorker>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly keepEnded: number;
  private closed = false;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.keepEnded = options.keepEnded ?? 1_000;
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueuedJob> {
    if (this.closed) throw new JobQueueClosedError(kind);
    if (options.retry !== undefined) checkRetry(options.retry);
    const id = options.id ?? randomUUID();
    const existing = this.jobs.get(id);
    if (existing !== undefined) return { id, deduplicated: true, finished: () => existing.outcome };
    let settle!: (outcome: JobOutcome) => void;
    const outcome = new Promise<JobOutcome>((resolve) => (settle = resolve));
    const job: Job = { id, kind, payload: jsonCopy(payload), retry: options.retry, state: 'waiting', attempts: 0, controller: undefined, backoff: undefined, cancelReason: undefined, outcome, settle };
    this.jobs.set(id, job);
    this.ended.delete(id);
    this.ready.push(job);
    this.dispatch();
    return { id, deduplicated: false, finished: () => outcome };
  }

  work(handler: JobHandler, options: JobWorkerOptions): JobWorker {
    checkConcurrency(options.concurrency);
    if (this.closed) throw new JobQueueClosedError('worker');
    const worker = new InProcessJobWorker(this, handler, options.concurrency);
    this.workers.add(worker);
    this.dispatch();
    return worker;
  }

  async get(id: string): Promise<JobSnapshot | undefined> {
    const job = this.jobs.get(id);
    if (job === undefined) return this.ended.get(id);
    return { id: job.id, kind: job.kind, payload: jsonCopy(job.payload), state: job.state, attempts: job.attempts };
  }

  async counts(): Promise<{ waiting: number; active: number }> {
    let active = 0;
    for (const job of this.jobs.values()) if (job.state === 'active') active += 1;
    return { waiting: this.jobs.size - active, active };
  }

  async cancel(id: string, reason: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (job === undefined) return false;
    if (job.state === 'active') {
      job.cancelReason = reason;
      job.controller!.abort(reason);
      return true;
    }
    this.unqueue(job);
    this.end(job, { id: job.id, kind: job.kind, state: 'cancelled', attempts: job.attempts, reason });
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.workers].map((worker) => worker.close()));
    for (const job of [...this.jobs.values()]) {
      this.unqueue(job);
      this.end(job, { id: job.id, kind: job.kind, state: 'cancelled', attempts: job.attempts, reason: 'queue-closed' });
    }
  }

  /** Resolves once no job is waiting or active. */
  whenIdle(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Hands ready jobs to workers with a free slot, in worker order, oldest job first. */
  dispatch(): void {
    for (const worker of this.workers) {
      while (worker.hasFreeSlot() && this.ready.length > 0) this.start(worker, this.ready.shift()!);
    }
  }

  forget(worker: InProcessJobWorker): void {
    this.workers.delete(worker);
  }

  private start(worker: InProcessJobWorker, job: Job): void {
    job.state = 'active';
    job.attempts += 1;
    job.controller = new AbortController();
    const attempt = { id: job.id, kind: job.kind, payload: jsonCopy(job.payload), attempt: job.attempts, redelivered: false, signal: job.controller.signal };
    worker.run(attempt, (settled) => this.afterAttempt(job, settled));
  }

  private afterAttempt(job: Job, settled: AttemptResult): void {
    job.controller = undefined;
    const { id, kind, attempts } = job;
    if (settled.ok) {
      this.end(job, { id, kind, state: 'completed', attempts, result: settled.value });
    } else if (job.cancelReason !== undefined) {
      this.end(job, { id, kind, state: 'cancelled', attempts, reason: job.cancelReason });
    } else if (job.retry !== undefined && attempts < job.retry.attempts) {
      job.state = 'waiting';
      job.backoff = setTimeout(() => {
        job.backoff = undefined;
        this.ready.push(job);
        this.dispatch();
      }, backoffDelay(job.retry, attempts));
    } else {
      this.end(job, { id, kind, state: 'failed', attempts, error: describeError(settled.error) });
    }
    this.dispatch();
  }

  private unqueue(job: Job): void {
    clearTimeout(job.backoff);
    job.backoff = undefined;
    const index = this.ready.indexOf(job);
    if (index >= 0) this.ready.splice(index, 1);
  }

  private end(job: Job, outcome: JobOutcome): void {
    this.jobs.delete(job.id);
    this.ended.set(job.id, { id: job.id, kind: job.kind, payload: job.payload, state: outcome.state, attempts: job.attempts });
    if (this.ended.size > this.keepEnded) this.ended.delete(this.ended.keys().next().value!);
    job.settle(outcome);
    if (this.jobs.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

class InProcessJobWorker implements JobWorker {
  private active = 0;
  private closing = false;
  private readonly closeWaiters: (() => void)[] = [];

  constructor(
    private readonly queue: InProcessJobQueue,
    private readonly handler: JobHandler,
    private readonly concurrency: number,
  ) {}

  hasFreeSlot(): boolean {
    return !this.closing && this.active < this.concurrency;
  }

  run(job: ActiveJob, done: (settled: AttemptResult) => void): void {
    this.active += 1;
    void this.attempt(job).then((settled) => {
      this.active -= 1;
      done(settled);
      if (this.closing && this.active === 0) for (const resolve of this.closeWaiters.splice(0)) resolve();
    });
  }

  private async attempt(job: ActiveJob): Promise<AttemptResult> {
    try {
      // A result that is not JSON fails the attempt here, as it would on a queue that crosses processes.
      return { ok: true, value: jsonCopy(await this.handler(job)) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  close(): Promise<void> {
    this.closing = true;
    this.queue.forget(this);
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  async drain(): Promise<void> {
    await this.queue.whenIdle();
    await this.close();
  }
}

/** The wait after attempt `failed` failed. */
function backoffDelay(retry: JobRetry, failed: number): number {
  return retry.backoff.type === 'fixed' ? retry.backoff.delayMs : retry.backoff.delayMs * 2 ** (failed - 1);
}

function jsonCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
