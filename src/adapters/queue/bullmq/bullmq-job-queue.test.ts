import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, type ActiveJob } from '../../../core/index.js';
import { redisTestKeys, TEST_REDIS_URL } from '../../../../test/support/redis-test-keys.js';
import { BullmqJobQueue, type BullmqJobQueueOptions } from './bullmq-job-queue.js';
import { describeJobQueueContract } from '../job-queue-contract.js';

const keys = redisTestKeys('queue');
const root = fileURLToPath(new URL('../../..', import.meta.url));
const stallingWorker = fileURLToPath(new URL('../../../../test/fixtures/redis/stalling-worker.ts', import.meta.url));
/** The stall tests' settings, as the stalling worker process has them: a dead worker's job is free again within ~1.5 s. */
const FAST_STALLS = { lockDurationMs: 1_000, stalledIntervalMs: 500 } as const;

afterEach(async () => {
  await keys.cleanup();
});

afterAll(async () => {
  await keys.close();
});

describeJobQueueContract('BullMQ', () => BullmqJobQueue.open({ url: TEST_REDIS_URL, prefix: keys.prefix() }));

function deferred<Value = void>(): { promise: Promise<Value>; resolve: (value: Value) => void } {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((done) => (resolve = done));
  return { promise, resolve };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

describe('BullmqJobQueue across processes', () => {
  const opened: BullmqJobQueue[] = [];
  let prefix: string;
  /** A queue of its own connections on the test's prefix, as one more Forge process would open it. */
  const openProcess = async (options: Partial<BullmqJobQueueOptions> = {}) => {
    const queue = await BullmqJobQueue.open({ url: TEST_REDIS_URL, prefix, ...options });
    opened.push(queue);
    return queue;
  };

  beforeEach(() => {
    prefix = keys.prefix();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((queue) => queue.close()));
  });

  it('runs a job enqueued by one process on another process’s worker, and settles finished() in the first with its result', async () => {
    const [a, b] = [await openProcess(), await openProcess()];
    const job = await a.enqueue('agent-run', { topic: 'lumen' }, { id: 'run-1' });
    const seen: ActiveJob[] = [];
    b.work(async (active) => {
      seen.push(active);
      return { answer: `done ${(active.payload as { topic: string }).topic}` };
    }, { concurrency: 1 });

    const outcome = await job.finished();

    expect(outcome).toEqual({ id: 'run-1', kind: 'agent-run', state: 'completed', attempts: 1, result: { answer: 'done lumen' } });
    expect(seen.map(({ id, kind, payload, attempt, redelivered }) => ({ id, kind, payload, attempt, redelivered }))).toEqual([{ id: 'run-1', kind: 'agent-run', payload: { topic: 'lumen' }, attempt: 1, redelivered: false }]);
    expect(await a.get('run-1')).toEqual({ id: 'run-1', kind: 'agent-run', payload: { topic: 'lumen' }, state: 'completed', attempts: 1 });
  });

  it('aborts, from one process, the attempt another process runs; every process reports the job cancelled, and it is never retried', async () => {
    const [a, b] = [await openProcess(), await openProcess()];
    const started = deferred<ActiveJob>();
    let attempts = 0;
    b.work(async (active) => {
      attempts += 1;
      started.resolve(active);
      await aborted(active.signal);
      throw new Error(`stopped: ${String(active.signal.reason)}`);
    }, { concurrency: 1 });
    const job = await a.enqueue('test', {}, { id: 'long', retry: { attempts: 3, backoff: { type: 'fixed', delayMs: 1 } } });
    const onB = await b.enqueue('test', {}, { id: 'long' });
    const active = await started.promise;

    expect(await a.cancel('long', 'cancelled from process A')).toBe(true);

    const cancelled = { id: 'long', kind: 'test', state: 'cancelled', attempts: 1, reason: 'cancelled from process A' };
    expect(await job.finished()).toEqual(cancelled);
    expect(onB.deduplicated).toBe(true);
    expect(await onB.finished()).toEqual(cancelled);
    expect(active.signal.reason).toBe('cancelled from process A');
    expect(await b.get('long')).toMatchObject({ state: 'cancelled', attempts: 1 });
    expect(attempts).toBe(1);
    expect(await a.cancel('long', 'again')).toBe(false);
  });

  it('cancels, from one process, a job waiting in Redis, and another process’s get reports it cancelled', async () => {
    const [a, b] = [await openProcess(), await openProcess()];
    const job = await a.enqueue('test', { name: 'never' }, { id: 'waiting' });

    expect(await b.cancel('waiting', 'not needed')).toBe(true);

    expect(await job.finished()).toEqual({ id: 'waiting', kind: 'test', state: 'cancelled', attempts: 0, reason: 'not needed' });
    expect(await a.get('waiting')).toEqual({ id: 'waiting', kind: 'test', payload: { name: 'never' }, state: 'cancelled', attempts: 0 });
    expect(await a.counts()).toEqual({ waiting: 0, active: 0 });
  });

  it('keeps a waiting job in Redis when its process closes, for a worker of the next process', async () => {
    const first = await openProcess();
    await first.enqueue('test', { name: 'left' }, { id: 'left-behind' });
    await first.close();
    const next = await openProcess();

    expect(await next.get('left-behind')).toMatchObject({ state: 'waiting', attempts: 0 });
    const ran: string[] = [];
    await next.work(async (job) => {
      ran.push(job.id);
    }, { concurrency: 1 }).drain();

    expect(ran).toEqual(['left-behind']);
    expect(await next.get('left-behind')).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('gives ids that BullMQ refuses (integers, colons, empty) jobs of their own, under their Forge id', async () => {
    const queue = await openProcess();
    const ids = ['42', 'schedule:daily:2026-12-03', 'schedule%3Adaily%3A2026-12-03', '', '#42', '-7'];
    const jobs = await Promise.all(ids.map((id) => queue.enqueue('test', { id }, { id })));
    expect(jobs.map((job) => job.deduplicated)).toEqual(ids.map(() => false));
    expect(await queue.counts()).toEqual({ waiting: ids.length, active: 0 });
    const ran: string[] = [];
    queue.work(async (job) => {
      ran.push(job.id);
      return (job.payload as { id: string }).id;
    }, { concurrency: 2 });

    const outcomes = await Promise.all(jobs.map((job) => job.finished()));

    expect([...ran].sort()).toEqual([...ids].sort());
    expect(outcomes.map((outcome) => [outcome.id, outcome.state === 'completed' ? outcome.result : outcome.state])).toEqual(ids.map((id) => [id, id]));
  });

  it('keeps a failed attempt’s error whole (its name and hint), which BullMQ alone would cut to its message', async () => {
    const queue = await openProcess();
    queue.work(async () => {
      throw new ConfigurationError('FORGE_MODEL', 'names no model.', 'Set FORGE_MODEL to provider:model.');
    }, { concurrency: 1 });

    const outcome = await (await queue.enqueue('test', {}, { id: 'misconfigured' })).finished();

    expect(outcome).toEqual({ id: 'misconfigured', kind: 'test', state: 'failed', attempts: 1, error: { name: 'ConfigurationError', message: 'FORGE_MODEL: names no model.', hint: 'Set FORGE_MODEL to provider:model.' } });
  });

  it('refuses a queue name with ":" and settings that are not whole numbers, before it connects', async () => {
    await expect(BullmqJobQueue.open({ url: 'redis://127.0.0.1:1', name: 'forge:jobs' })).rejects.toMatchObject({ name: 'ConfigurationError', variable: 'name' });
    await expect(BullmqJobQueue.open({ url: 'redis://127.0.0.1:1', lockDurationMs: 0.5 })).rejects.toMatchObject({ name: 'ConfigurationError', variable: 'lockDurationMs' });
  });
});

describe('BullmqJobQueue when a worker process is killed', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  let queue: BullmqJobQueue;
  let prefix: string;

  beforeEach(async () => {
    prefix = keys.prefix();
    queue = await BullmqJobQueue.open({ url: TEST_REDIS_URL, prefix, ...FAST_STALLS });
  });

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await queue.close();
  });

  /** Starts the stalling worker process and resolves once its handler holds a job, with the attempt it got. */
  function stallingWorkerHolding(): Promise<{ child: ChildProcessWithoutNullStreams; attempt: number; exited: Promise<NodeJS.Signals | null> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', stallingWorker, TEST_REDIS_URL, prefix], { cwd: root, env: { PATH: process.env['PATH'] ?? '' } });
    children.push(child);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The stalling worker took no job within 15 s. stderr: ${stderr}`)), 15_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const started = /^started \S+ (\d+)$/m.exec(stdout);
        if (started === null) return;
        clearTimeout(timer);
        resolve({ child, attempt: Number(started[1]), exited });
      });
      void exited.then(() => reject(new Error(`The stalling worker exited early. stderr: ${stderr}`)));
    });
  }

  it('re-delivers the job a SIGKILLed worker held to another worker, as attempt 2 marked redelivered, once its lock expires', async () => {
    const job = await queue.enqueue('agent-run', { topic: 'lumen' }, { id: 'run-7' });
    const holder = await stallingWorkerHolding();
    expect(holder.attempt).toBe(1);
    holder.child.kill('SIGKILL');
    expect(await holder.exited).toBe('SIGKILL');
    const killedAt = performance.now();
    const seen: ActiveJob[] = [];
    queue.work(async (active) => {
      seen.push(active);
      return `resumed ${(active.payload as { topic: string }).topic}`;
    }, { concurrency: 1 });

    const outcome = await job.finished();

    expect(outcome).toEqual({ id: 'run-7', kind: 'agent-run', state: 'completed', attempts: 2, result: 'resumed lumen' });
    expect(seen.map(({ id, attempt, redelivered, payload }) => ({ id, attempt, redelivered, payload }))).toEqual([{ id: 'run-7', attempt: 2, redelivered: true, payload: { topic: 'lumen' } }]);
    // Lock (1 s) plus two stall checks (0.5 s apart), with room for a slow machine.
    expect(performance.now() - killedAt).toBeLessThan(6_000);
  });

  it('ends cancelled, without running it again, a job cancelled while the worker that held it lay dead', async () => {
    const job = await queue.enqueue('test', {}, { id: 'orphan', retry: { attempts: 3, backoff: { type: 'fixed', delayMs: 1 } } });
    const holder = await stallingWorkerHolding();
    holder.child.kill('SIGKILL');
    await holder.exited;

    expect(await queue.cancel('orphan', 'its worker is gone')).toBe(true);
    let handlerCalls = 0;
    queue.work(async () => {
      handlerCalls += 1;
    }, { concurrency: 1 });

    const outcome = await job.finished();
    expect(outcome).toMatchObject({ id: 'orphan', state: 'cancelled', reason: 'its worker is gone' });
    // Cancelled while the dead worker's lock still held it (attempt 2 fails before the handler), or after (taken out at once).
    expect([1, 2]).toContain(outcome.attempts);
    expect(handlerCalls).toBe(0);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
  });
});
