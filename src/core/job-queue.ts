import type { ErrorInfo } from './events.js';

/** How a failed attempt of a retryable job is tried again. */
export interface JobRetry {
  /** Attempts in all, the first included: a whole number ≥ 1. */
  readonly attempts: number;
  /**
   * The wait after attempt n fails, before the job queues again: `delayMs` every time (`fixed`), or
   * `delayMs × 2^(n-1)` (`exponential`, as BullMQ computes it).
   */
  readonly backoff: { readonly type: 'fixed' | 'exponential'; readonly delayMs: number };
}

export interface EnqueueOptions {
  /**
   * The job's id (a run id, a schedule's slot). While a job with this id is waiting or active,
   * enqueueing it again adds nothing and returns that job, marked `deduplicated`; once it has ended the
   * id may be enqueued again as a new job. Generated when absent.
   */
  readonly id?: string;
  /**
   * Only for work that is safe to run again (it writes nothing, or writes idempotently): a failed attempt
   * is then retried with backoff. Without it a job is attempted once, and a failure ends it `failed`.
   */
  readonly retry?: JobRetry;
}

/** `waiting` includes a retryable job waiting out its backoff. */
export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'cancelled';

/** A job as the queue knows it now. */
export interface JobSnapshot {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  readonly state: JobState;
  /** Attempts started so far. */
  readonly attempts: number;
}

/** How a job ended. */
export type JobOutcome =
  | { readonly id: string; readonly kind: string; readonly state: 'completed'; readonly attempts: number; readonly result: unknown }
  | { readonly id: string; readonly kind: string; readonly state: 'failed'; readonly attempts: number; readonly error: ErrorInfo }
  | { readonly id: string; readonly kind: string; readonly state: 'cancelled'; readonly attempts: number; readonly reason: string };

export interface EnqueuedJob {
  readonly id: string;
  /** A job with this id was already waiting or active: that job is the one returned, unchanged. */
  readonly deduplicated: boolean;
  /** Settles once the job has ended, with how it ended; it never rejects. */
  finished(): Promise<JobOutcome>;
}

/** One attempt of a job, as a worker's handler receives it. */
export interface ActiveJob {
  readonly id: string;
  readonly kind: string;
  /** A copy of what was enqueued (payloads cross processes as JSON, so only JSON survives). */
  readonly payload: unknown;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /**
   * True when an earlier attempt of this job started and never settled: the worker running it died (or
   * stopped renewing its hold on the job) and a durable queue delivered the job again. That attempt may
   * have done part of the work, so a handler resumes rather than starts over. False (or absent) otherwise,
   * always on the in-process queue.
   */
  readonly redelivered?: boolean;
  /** Aborts, with the cancellation's reason, when the job is cancelled while this attempt runs. */
  readonly signal: AbortSignal;
}

/**
 * One attempt. Resolving acknowledges the job: it ends `completed` with the value (JSON) as its result,
 * even when it was cancelled meanwhile, since the work was done. Throwing fails the attempt: a
 * cancelled job then ends `cancelled`; a retryable one with attempts left waits its backoff and queues
 * again; any other ends `failed` with the error.
 */
export type JobHandler = (job: ActiveJob) => Promise<unknown>;

export interface JobWorkerOptions {
  /** Attempts this worker runs at once, at most: a whole number ≥ 1. */
  readonly concurrency: number;
}

/** A consumer of a queue's jobs. */
export interface JobWorker {
  /**
   * Stops taking jobs and resolves once this worker's active attempts have settled (acknowledged or
   * failed as usual). Jobs still waiting stay queued, for another worker.
   */
  close(): Promise<void>;
  /** Takes jobs until none is waiting (backoffs included) or active on the queue, then closes. */
  drain(): Promise<void>;
}

/**
 * Work to be done by whichever worker is free: agent runs, replays, syntheses, scheduled work. Jobs
 * start in the order they were enqueued (a retry queues again behind the jobs waiting when its backoff
 * ends); no worker runs more attempts at once than its concurrency; a job is attempted again only when
 * it was enqueued with `retry`, or when a durable queue's worker died while running it (a re-delivery,
 * marked `redelivered`, which does not use up a retry). The in-process queue is the embedded default; a
 * durable one (BullMQ) keeps waiting jobs across processes. Every implementation passes
 * `describeJobQueueContract`.
 */
export interface JobQueue {
  /** Rejects with `JobQueueClosedError` once the queue is closed. `payload` must be JSON. */
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<EnqueuedJob>;
  /** Starts a worker that runs `handler` for every job, up to `concurrency` at once. */
  work(handler: JobHandler, options: JobWorkerOptions): JobWorker;
  /** The job while it is waiting or active; an ended one for as long as the queue keeps it; else undefined. */
  get(id: string): Promise<JobSnapshot | undefined>;
  counts(): Promise<{ readonly waiting: number; readonly active: number }>;
  /**
   * A waiting job ends `cancelled` at once and never starts; an active one's signal aborts with
   * `reason` and it is never retried. Resolves false when no such job is waiting or active.
   */
  cancel(id: string, reason: string): Promise<boolean>;
  /**
   * Closes every worker (their active attempts settle first) and refuses new jobs. A durable queue keeps
   * its waiting jobs for the next process; a queue that lives in this process ends them `cancelled`
   * (reason `queue-closed`), so no `finished()` is left hanging.
   */
  close(): Promise<void>;
}
