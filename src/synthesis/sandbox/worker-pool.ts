import { Worker } from 'node:worker_threads';

/** The heap every sandbox worker gets, in MiB. */
export const WORKER_HEAP_MB = 128;
/** The stack of every sandbox worker's thread, in MiB. */
export const WORKER_STACK_MB = 4;
/** Idle workers kept for the next runs; more are started when runs overlap, and ended when they return. */
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
  /** Runs served, all workers together. */
  readonly runs: number;
  /** Workers ended after a run that left them in doubt (a deadline, a limit, a crash). */
  readonly discarded: number;
}

interface PooledWorker {
  readonly worker: Worker;
  readonly script: string;
  alive: boolean;
  runs: number;
  idleTimer?: NodeJS.Timeout;
}

const idle: PooledWorker[] = [];
const statistics = { started: 0, runs: 0, discarded: 0 };

function startWorker(script: URL, workerData: unknown): PooledWorker {
  const worker = new Worker(script, {
    // The worker gets nothing of the host process: no environment, no inherited flags or loaders.
    env: {},
    execArgv: [],
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, stackSizeMb: WORKER_STACK_MB },
  });
  statistics.started += 1;
  const pooled: PooledWorker = { worker, script: script.href, alive: true, runs: 0 };
  const died = () => {
    pooled.alive = false;
  };
  worker.once('exit', died);
  worker.once('error', died);
  return pooled;
}

function makeIdle(pooled: PooledWorker): void {
  // An idle worker never keeps the process alive.
  pooled.worker.unref();
  pooled.idleTimer = setTimeout(() => {
    const index = idle.indexOf(pooled);
    if (index !== -1) idle.splice(index, 1);
    void pooled.worker.terminate();
  }, IDLE_TIMEOUT_MS);
  pooled.idleTimer.unref();
  idle.push(pooled);
}

function takeIdle(script: URL): PooledWorker | undefined {
  while (idle.length > 0) {
    // Most recently used first: its code is the warmest.
    const pooled = idle.pop()!;
    clearTimeout(pooled.idleTimer);
    if (pooled.alive && pooled.script === script.href) return pooled;
    void pooled.worker.terminate();
  }
  return undefined;
}

/**
 * A worker thread for one sandbox run. Starting a thread (a new V8 isolate that loads QuickJS's glue)
 * costs far more than a short run, so workers serve run after run: each run still gets a fresh QuickJS
 * runtime in fresh WebAssembly memory (see sandbox-worker.mjs), and the thread itself is the boundary
 * the host can always end. When none is idle, one is started for this run and, in the background, a
 * spare for the next. `workerData` is given to workers this call starts; it must be the same on every call.
 */
export function leaseSandboxWorker(script: URL, workerData: unknown): WorkerLease {
  const pooled = takeIdle(script) ?? startWorker(script, workerData);
  pooled.worker.ref();
  if (idle.length === 0) {
    setImmediate(() => {
      if (idle.length === 0) makeIdle(startWorker(script, workerData));
    });
  }
  let ended = false;
  return {
    worker: pooled.worker,
    release() {
      if (ended) return;
      ended = true;
      pooled.runs += 1;
      statistics.runs += 1;
      if (pooled.alive && pooled.runs < RUNS_PER_WORKER && idle.length < MAXIMUM_IDLE_WORKERS) makeIdle(pooled);
      else void pooled.worker.terminate();
    },
    async discard() {
      if (ended) return;
      ended = true;
      pooled.runs += 1;
      statistics.runs += 1;
      pooled.alive = false;
      statistics.discarded += 1;
      await pooled.worker.terminate();
    },
  };
}

export function workerPoolStatistics(): WorkerPoolStatistics {
  return { ...statistics, idle: idle.length };
}

/** Ends every idle worker now, rather than after their idle timeout; runs in progress are not touched. */
export async function closeIdleSandboxWorkers(): Promise<void> {
  const ending = idle.splice(0);
  for (const pooled of ending) clearTimeout(pooled.idleTimer);
  await Promise.all(ending.map((pooled) => pooled.worker.terminate()));
}
