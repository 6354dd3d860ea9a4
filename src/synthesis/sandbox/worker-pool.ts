import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The heap every sandbox worker gets, in MiB. */
export const WORKER_HEAP_MB = 128;
/** The stack of every sandbox worker's thread, in MiB. */
export const WORKER_STACK_MB = 4;
/**
 * Workers alive at once, busy or idle. Runs beyond it wait for a worker: guest code is CPU-bound, so more
 * threads than this only add start-up cost, while a couple per core leaves room for runs that mostly wait
 * on a capability (a slow server). Capped at 16, since each worker holds an isolate and a WebAssembly memory.
 */
export const MAXIMUM_WORKERS = Math.min(16, Math.max(4, 2 * availableParallelism()));
/** Idle workers kept for the next runs; more are ended when they return. */
const MAXIMUM_IDLE_WORKERS = 4;
/** Runs one worker serves before it is replaced, so its own heap never accumulates a long history. */
const RUNS_PER_WORKER = 200;
/** An idle worker this long unused is ended; a long-lived process does not keep threads for nothing. */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * A worker lent to one sandbox run. The run ends the lease exactly once: `release` when the worker is
 * healthy and may serve another run, `discard` when it must not (a deadline, a crash, a run that ended
 * abnormally).
 */
export interface WorkerLease {
  readonly worker: Worker;
  release(): void;
  discard(): Promise<void>;
}

/** What the pool has done in this process, for tests and diagnostics. */
export interface WorkerPoolStatistics {
  /** Workers started since the process began. */
  readonly started: number;
  /** Workers waiting for a run right now. */
  readonly idle: number;
  /** Workers serving a run right now. */
  readonly busy: number;
  /** Runs served, all workers together. */
  readonly runs: number;
  /** Workers ended after a run that left them in doubt (a deadline, a limit, a crash). */
  readonly discarded: number;
  /** Runs that had to wait because `MAXIMUM_WORKERS` were busy. */
  readonly queued: number;
}

interface PooledWorker {
  readonly worker: Worker;
  alive: boolean;
  runs: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * The worker threads sandbox runs borrow. Starting a thread (a new V8 isolate that loads QuickJS's glue)
 * costs far more than a short run, so workers serve run after run: each run still gets a fresh QuickJS
 * instance in fresh WebAssembly memory (see sandbox-worker.mjs), and the thread itself is the boundary
 * the host can always end. At most `MAXIMUM_WORKERS` exist at once; further runs wait their turn.
 */
export class SandboxWorkerPool {
  private readonly idle: PooledWorker[] = [];
  private readonly waiting: Array<(pooled: PooledWorker) => void> = [];
  private busy = 0;
  private readonly statistics = { started: 0, runs: 0, discarded: 0, queued: 0 };

  /** `workerData` is what every worker starts with (sandbox-worker.mjs reads it). */
  constructor(
    private readonly script: URL,
    private readonly workerData: unknown,
  ) {}

  /** A worker for one run: an idle one, a new one while there is room, or the next one to come free. */
  async lease(): Promise<WorkerLease> {
    const pooled = this.takeIdle() ?? (this.busy + this.idle.length < MAXIMUM_WORKERS ? this.startWorker() : undefined);
    let leased: PooledWorker;
    if (pooled === undefined) {
      this.statistics.queued += 1;
      // The waiter is counted as busy by whoever hands it a worker.
      leased = await new Promise<PooledWorker>((resolve) => this.waiting.push(resolve));
    } else {
      this.busy += 1;
      leased = pooled;
    }
    leased.worker.ref();
    this.startSpareIfNone();
    return this.leaseOf(leased);
  }

  /** Starts a worker now if none is idle, so the next run does not wait for a thread to start. */
  warm(): void {
    this.startSpareIfNone();
  }

  statisticsNow(): WorkerPoolStatistics {
    return { ...this.statistics, idle: this.idle.length, busy: this.busy };
  }

  /** Ends every idle worker now, rather than after their idle timeout; runs in progress are not touched. */
  async closeIdle(): Promise<void> {
    const ending = this.idle.splice(0);
    for (const pooled of ending) clearTimeout(pooled.idleTimer);
    await Promise.all(ending.map((pooled) => pooled.worker.terminate()));
  }

  private leaseOf(pooled: PooledWorker): WorkerLease {
    let ended = false;
    const end = () => {
      if (ended) return false;
      ended = true;
      pooled.runs += 1;
      this.statistics.runs += 1;
      return true;
    };
    return {
      worker: pooled.worker,
      release: () => {
        if (!end()) return;
        if (pooled.alive && pooled.runs < RUNS_PER_WORKER) {
          this.handBack(pooled);
        } else {
          void pooled.worker.terminate();
          this.replace();
        }
      },
      discard: async () => {
        if (!end()) return;
        pooled.alive = false;
        this.statistics.discarded += 1;
        const terminated = pooled.worker.terminate();
        this.replace();
        await terminated;
      },
    };
  }

  /** A healthy worker back from a run: straight to the next waiting run, else idle (or ended if too many are). */
  private handBack(pooled: PooledWorker): void {
    const next = this.waiting.shift();
    if (next !== undefined) {
      next(pooled);
      return;
    }
    this.busy -= 1;
    if (this.idle.length < MAXIMUM_IDLE_WORKERS) this.makeIdle(pooled);
    else void pooled.worker.terminate();
  }

  /** A worker that was ended: a waiting run gets a new one in its place. */
  private replace(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(this.startWorker());
    else this.busy -= 1;
  }

  private startSpareIfNone(): void {
    if (this.idle.length > 0 || this.busy + this.idle.length >= MAXIMUM_WORKERS) return;
    setImmediate(() => {
      if (this.idle.length === 0 && this.busy + this.idle.length < MAXIMUM_WORKERS) this.makeIdle(this.startWorker());
    });
  }

  private startWorker(): PooledWorker {
    const worker = new Worker(this.script, {
      // The worker gets nothing of the host process: no environment, no inherited flags or loaders.
      env: {},
      execArgv: [],
      workerData: this.workerData,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, stackSizeMb: WORKER_STACK_MB },
    });
    this.statistics.started += 1;
    const pooled: PooledWorker = { worker, alive: true, runs: 0 };
    const died = () => {
      pooled.alive = false;
    };
    worker.once('exit', died);
    worker.once('error', died);
    return pooled;
  }

  private makeIdle(pooled: PooledWorker): void {
    // An idle worker never keeps the process alive.
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(pooled);
      if (index !== -1) this.idle.splice(index, 1);
      void pooled.worker.terminate();
    }, IDLE_TIMEOUT_MS);
    pooled.idleTimer.unref();
    this.idle.push(pooled);
  }

  private takeIdle(): PooledWorker | undefined {
    while (this.idle.length > 0) {
      // Most recently used first: its code is the warmest.
      const pooled = this.idle.pop()!;
      clearTimeout(pooled.idleTimer);
      if (pooled.alive) return pooled;
      void pooled.worker.terminate();
    }
    return undefined;
  }
}
