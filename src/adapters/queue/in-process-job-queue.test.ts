import { describe, expect, it } from 'vitest';
import { InProcessJobQueue } from './in-process-job-queue.js';
import { describeJobQueueContract } from './job-queue-contract.js';

describeJobQueueContract('in-process', async () => new InProcessJobQueue());

describe('InProcessJobQueue', () => {
  it('ends the jobs still waiting when it closes, backoffs included, so no finished() hangs', async () => {
    const queue = new InProcessJobQueue();
    let attempts = 0;
    queue.work(async (job) => {
      attempts += 1;
      if (job.id === 'retrying') throw new Error('later');
      return 'done';
    }, { concurrency: 1 });
    const retrying = await queue.enqueue('test', {}, { id: 'retrying', retry: { attempts: 3, backoff: { type: 'fixed', delayMs: 60_000 } } });
    await expect.poll(async () => queue.get('retrying')).toMatchObject({ state: 'waiting', attempts: 1 });

    await queue.close();

    expect(await retrying.finished()).toEqual({ id: 'retrying', kind: 'test', state: 'cancelled', attempts: 1, reason: 'queue-closed' });
    expect(attempts).toBe(1);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
  });

  it('keeps the newest ended jobs for get, up to keepEnded', async () => {
    const queue = new InProcessJobQueue({ keepEnded: 2 });
    queue.work(async () => 'ok', { concurrency: 1 });
    for (const id of ['one', 'two', 'three']) await (await queue.enqueue('test', { id }, { id })).finished();

    expect(await queue.get('one')).toBeUndefined();
    expect(await queue.get('two')).toEqual({ id: 'two', kind: 'test', payload: { id: 'two' }, state: 'completed', attempts: 1 });
    expect(await queue.get('three')).toMatchObject({ state: 'completed' });
    await queue.close();
  });

  it('fails an attempt whose result is not JSON, as a queue across processes would', async () => {
    const queue = new InProcessJobQueue();
    queue.work(async () => 10n, { concurrency: 1 });

    const outcome = await (await queue.enqueue('test', {})).finished();

    expect(outcome).toMatchObject({ state: 'failed', attempts: 1, error: { name: 'TypeError' } });
    await queue.close();
  });

  it('refuses a concurrency or retry that is not a whole number ≥ 1', async () => {
    const queue = new InProcessJobQueue();
    expect(() => queue.work(async () => undefined, { concurrency: 0 })).toThrow(expect.objectContaining({ name: 'ConfigurationError', variable: 'concurrency' }));
    await expect(queue.enqueue('test', {}, { retry: { attempts: 0, backoff: { type: 'fixed', delayMs: 1 } } })).rejects.toMatchObject({ name: 'ConfigurationError', variable: 'retry.attempts' });
    await queue.close();
  });
});
