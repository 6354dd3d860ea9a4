import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActiveJob, EnqueuedJob, JobQueue } from '../../core/index.js';

/** A promise with its resolve function, so a test decides when a handler goes on. */
function deferred<Value = void>(): { promise: Promise<Value>; resolve: (value: Value) => void } {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves once `count` calls of `arrive` have been made. */
function arrivals(count: number): { arrive: () => void; all: Promise<void> } {
  const { promise, resolve } = deferred();
  let arrived = 0;
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === count) resolve();
    },
    all: promise,
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

async function enqueueAll(queue: JobQueue, ids: readonly string[]): Promise<EnqueuedJob[]> {
  const jobs: EnqueuedJob[] = [];
  for (const id of ids) jobs.push(await queue.enqueue('test', { name: id }, { id }));
  return jobs;
}

const nameOf = (job: ActiveJob) => (job.payload as { name: string }).name;

/**
 * The behaviour every `JobQueue` implementation must have, as one vitest suite written against the
 * interface alone: the in-process queue runs it here, and a durable queue (BullMQ) runs exactly these
 * tests. `createQueue` is called once per test and must return an empty queue; the suite closes it.
 */
export function describeJobQueueContract(name: string, createQueue: () => Promise<JobQueue>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;

    beforeEach(async () => {
      queue = await createQueue();
    });

    afterEach(async () => {
      await queue.close();
    });

    it('delivers each job once, with its kind, a copy of its payload and attempt 1, and reports the result', async () => {
      const payload = { topic: 'lumen', limits: [1, 2] };
      const job = await queue.enqueue('agent-run', payload, { id: 'job-1' });
      payload.topic = 'changed after enqueue';
      const seen: ActiveJob[] = [];
      queue.work(async (active) => {
        seen.push(active);
        return { answer: `done ${(active.payload as { topic: string }).topic}` };
      }, { concurrency: 1 });

      const outcome = await job.finished();

      expect(job).toMatchObject({ id: 'job-1', deduplicated: false });
      expect(seen.map(({ id, kind, payload: given, attempt }) => ({ id, kind, payload: given, attempt }))).toEqual([{ id: 'job-1', kind: 'agent-run', payload: { topic: 'lumen', limits: [1, 2] }, attempt: 1 }]);
      expect(outcome).toEqual({ id: 'job-1', kind: 'agent-run', state: 'completed', attempts: 1, result: { answer: 'done lumen' } });
      expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
    });

    it('starts jobs in the order they were enqueued', async () => {
      const jobs = await enqueueAll(queue, ['a', 'b', 'c', 'd', 'e']);
      const order: string[] = [];
      queue.work(async (job) => {
        order.push(nameOf(job));
      }, { concurrency: 1 });

      await Promise.all(jobs.map((job) => job.finished()));

      expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('never runs more jobs at once than the concurrency, and uses all of it', async () => {
      const concurrency = 3;
      const ids = Array.from({ length: 10 }, (_, index) => `job-${index}`);
      const jobs = await enqueueAll(queue, ids);
      let running = 0;
      let peak = 0;
      let started = 0;
      let gate = deferred();
      queue.work(async () => {
        running += 1;
        started += 1;
        peak = Math.max(peak, running);
        const held = gate.promise;
        // Each batch is held until it fills the worker (or the last jobs have started), then let go together.
        if (running === concurrency || started === ids.length) {
          gate.resolve();
          gate = deferred();
        }
        await held;
        running -= 1;
      }, { concurrency });

      const outcomes = await Promise.all(jobs.map((job) => job.finished()));

      expect(peak).toBe(concurrency);
      expect(started).toBe(ids.length);
      expect(outcomes.map((outcome) => outcome.state)).toEqual(ids.map(() => 'completed'));
    });

    it('deduplicates an id while its job is waiting or active, and takes it again once the job has ended', async () => {
      const first = await queue.enqueue('test', { name: 'first' }, { id: 'run-42' });
      const again = await queue.enqueue('test', { name: 'second' }, { id: 'run-42' });
      expect(again).toMatchObject({ id: 'run-42', deduplicated: true });
      expect(await queue.counts()).toEqual({ waiting: 1, active: 0 });
      const ran: string[] = [];
      const worker = queue.work(async (job) => {
        ran.push(nameOf(job));
      }, { concurrency: 2 });

      expect(await again.finished()).toMatchObject({ id: 'run-42', state: 'completed' });
      expect(await first.finished()).toMatchObject({ id: 'run-42', state: 'completed' });
      const later = await queue.enqueue('test', { name: 'third' }, { id: 'run-42' });
      expect(later.deduplicated).toBe(false);
      await later.finished();
      await worker.close();

      expect(ran).toEqual(['first', 'third']);
    });

    it('ends a failed job that was not marked retryable at once: one attempt, its error kept', async () => {
      let calls = 0;
      queue.work(async () => {
        calls += 1;
        throw new Error('the page was gone');
      }, { concurrency: 1 });

      const outcome = await (await queue.enqueue('test', {}, { id: 'once' })).finished();

      expect(outcome).toEqual({ id: 'once', kind: 'test', state: 'failed', attempts: 1, error: { name: 'Error', message: 'the page was gone' } });
      expect(calls).toBe(1);
    });

    it('retries a retryable job after a fixed backoff until an attempt succeeds', async () => {
      const delayMs = 30;
      const attempts: { attempt: number; at: number }[] = [];
      queue.work(async (job) => {
        attempts.push({ attempt: job.attempt, at: performance.now() });
        if (job.attempt < 3) throw new Error(`attempt ${job.attempt} failed`);
        return 'third time';
      }, { concurrency: 1 });

      const outcome = await (await queue.enqueue('test', {}, { id: 'flaky', retry: { attempts: 5, backoff: { type: 'fixed', delayMs } } })).finished();

      expect(outcome).toEqual({ id: 'flaky', kind: 'test', state: 'completed', attempts: 3, result: 'third time' });
      expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3]);
      // Timers may fire a millisecond early; the backoff is a lower bound.
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(delayMs - 2);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(delayMs - 2);
    });

    it('stops retrying after the last attempt with exponential backoff, ending failed with the last error', async () => {
      const delayMs = 15;
      const starts: number[] = [];
      queue.work(async (job) => {
        starts.push(performance.now());
        throw new Error(`attempt ${job.attempt} failed`);
      }, { concurrency: 1 });

      const outcome = await (await queue.enqueue('test', {}, { id: 'broken', retry: { attempts: 3, backoff: { type: 'exponential', delayMs } } })).finished();

      expect(outcome).toEqual({ id: 'broken', kind: 'test', state: 'failed', attempts: 3, error: { name: 'Error', message: 'attempt 3 failed' } });
      expect(starts).toHaveLength(3);
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(delayMs - 2);
      expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(2 * delayMs - 2);
    });

    it('cancels a waiting job: it never starts, the others do', async () => {
      const [first, second] = await enqueueAll(queue, ['first', 'second']);
      expect(await queue.cancel('first', 'the user changed their mind')).toBe(true);
      expect(await queue.counts()).toEqual({ waiting: 1, active: 0 });
      const ran: string[] = [];
      const worker = queue.work(async (job) => {
        ran.push(nameOf(job));
      }, { concurrency: 1 });

      expect(await first!.finished()).toEqual({ id: 'first', kind: 'test', state: 'cancelled', attempts: 0, reason: 'the user changed their mind' });
      expect(await second!.finished()).toMatchObject({ state: 'completed' });
      await worker.drain();

      expect(ran).toEqual(['second']);
      expect(await queue.cancel('second', 'too late')).toBe(false);
      expect(await queue.cancel('no-such-job', 'never there')).toBe(false);
    });

    it('cancels a running job through its signal, and never retries it', async () => {
      const started = deferred<ActiveJob>();
      let attempts = 0;
      queue.work(async (job) => {
        attempts += 1;
        started.resolve(job);
        await aborted(job.signal);
        throw new Error(`stopped: ${String(job.signal.reason)}`);
      }, { concurrency: 1 });
      const job = await queue.enqueue('test', {}, { id: 'long', retry: { attempts: 3, backoff: { type: 'fixed', delayMs: 1 } } });

      const active = await started.promise;
      expect(await queue.get('long')).toMatchObject({ state: 'active', attempts: 1 });
      expect(await queue.cancel('long', 'cancelled from the API')).toBe(true);

      expect(await job.finished()).toEqual({ id: 'long', kind: 'test', state: 'cancelled', attempts: 1, reason: 'cancelled from the API' });
      expect(active.signal.reason).toBe('cancelled from the API');
      expect(attempts).toBe(1);
    });

    it('cancels a job waiting out its backoff: no further attempt', async () => {
      let attempts = 0;
      queue.work(async () => {
        attempts += 1;
        throw new Error('not yet');
      }, { concurrency: 1 });
      const job = await queue.enqueue('test', {}, { id: 'backing-off', retry: { attempts: 5, backoff: { type: 'fixed', delayMs: 60_000 } } });
      await expect.poll(async () => queue.get('backing-off')).toMatchObject({ state: 'waiting', attempts: 1 });

      expect(await queue.cancel('backing-off', 'gave up')).toBe(true);

      expect(await job.finished()).toMatchObject({ state: 'cancelled', attempts: 1, reason: 'gave up' });
      expect(attempts).toBe(1);
    });

    it('loses no job when a worker closes mid-way: active jobs finish, waiting ones stay for the next worker', async () => {
      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      const jobs = await enqueueAll(queue, ids);
      const runs: string[] = [];
      const release = deferred();
      const bothStarted = arrivals(2);
      const first = queue.work(async (job) => {
        runs.push(nameOf(job));
        bothStarted.arrive();
        await release.promise;
      }, { concurrency: 2 });
      await bothStarted.all;

      let closed = false;
      const closing = first.close().then(() => (closed = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      release.resolve();
      await closing;

      expect(runs).toEqual(['a', 'b']);
      expect(await jobs[0]!.finished()).toMatchObject({ state: 'completed' });
      expect(await jobs[1]!.finished()).toMatchObject({ state: 'completed' });
      expect(await queue.counts()).toEqual({ waiting: 4, active: 0 });
      expect(await queue.get('c')).toMatchObject({ state: 'waiting', attempts: 0 });

      await queue.work(async (job) => {
        runs.push(nameOf(job));
      }, { concurrency: 3 }).drain();

      expect([...runs].sort()).toEqual(ids);
      expect((await Promise.all(jobs.map((job) => job.finished()))).map((outcome) => outcome.state)).toEqual(ids.map(() => 'completed'));
    });

    it('drains: every job ends, retries and jobs enqueued by a handler included', async () => {
      const ids = ['a', 'b', 'c', 'd'];
      const jobs = await enqueueAll(queue, ids);
      jobs.push(await queue.enqueue('test', { name: 'flaky' }, { id: 'flaky', retry: { attempts: 2, backoff: { type: 'fixed', delayMs: 5 } } }));
      const runs: string[] = [];
      const followUps: EnqueuedJob[] = [];
      const worker = queue.work(async (job) => {
        runs.push(`${nameOf(job)}#${job.attempt}`);
        if (nameOf(job) === 'flaky' && job.attempt === 1) throw new Error('first attempt fails');
        if (nameOf(job) === 'a') followUps.push(await queue.enqueue('test', { name: 'follow-up' }, { id: 'follow-up' }));
      }, { concurrency: 2 });

      await worker.drain();

      expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
      expect([...runs].sort()).toEqual(['a#1', 'b#1', 'c#1', 'd#1', 'flaky#1', 'flaky#2', 'follow-up#1']);
      const outcomes = await Promise.all([...jobs, ...followUps].map((job) => job.finished()));
      expect(outcomes.map((outcome) => [outcome.id, outcome.state])).toEqual([...ids, 'flaky', 'follow-up'].map((id) => [id, 'completed']));
    });

    it('closes after its active jobs finish, then refuses new jobs', async () => {
      const started = deferred();
      const release = deferred();
      queue.work(async () => {
        started.resolve();
        await release.promise;
        return 'finished before the close';
      }, { concurrency: 1 });
      const job = await queue.enqueue('test', {}, { id: 'in-flight' });
      await started.promise;

      const closing = queue.close();
      release.resolve();
      await closing;

      expect(await job.finished()).toMatchObject({ state: 'completed', result: 'finished before the close' });
      await expect(queue.enqueue('test', {})).rejects.toMatchObject({ name: 'JobQueueClosedError', kind: 'test' });
    });
  });
}
