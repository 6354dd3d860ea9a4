import { Worker } from 'node:worker_threads';

/** The heap every sandbox worker gets, in MiB. */
export const WORKER_HEAP_MB = 128;
/** The stack of every sandbox worker's thread, in MiB. */
export const WORKER_STACK_MB = 4;
/** Started workers kept waiting: a verification needs two in a row (module check, then the test). */
const SPARE_WORKERS = 2;

interface Spare {
  readonly worker: Worker;
  readonly script: string;
  alive: boolean;
}

const spares: Spare[] = [];

function startWorker(script: URL): Worker {
  return new Worker(script, {
    // The worker gets nothing of the host process: no environment, no inherited flags or loaders.
    env: {},
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, stackSizeMb: WORKER_STACK_MB },
  });
}

function startSpare(script: URL): void {
  const spare: Spare = { worker: startWorker(script), script: script.href, alive: true };
  const died = () => {
    spare.alive = false;
  };
  spare.worker.once('exit', died);
  spare.worker.once('error', died);
  // An idle spare never keeps the process alive.
  spare.worker.unref();
  spares.push(spare);
}

/**
 * A fresh worker for one sandbox run. Starting a worker thread is most of a short run's cost, so a couple
 * of spares are kept started in the background: the caller gets a spare that has never run anything and
 * is waiting for its single job, and a replacement starts for the next run. Each worker runs one job.
 */
export function takeSandboxWorker(script: URL): Worker {
  let taken: Worker | undefined;
  while (taken === undefined && spares.length > 0) {
    const spare = spares.shift()!;
    if (spare.alive && spare.script === script.href) taken = spare.worker;
    else void spare.worker.terminate();
  }
  const worker = taken ?? startWorker(script);
  worker.ref();
  setImmediate(() => {
    while (spares.length < SPARE_WORKERS) startSpare(script);
  });
  return worker;
}
