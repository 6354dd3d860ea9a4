import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ForgeEvent } from '../../core/index.js';
import { redisTestKeys, TEST_REDIS_URL } from '../../../test/support/redis-test-keys.js';
import { openRedisScaling, type RedisScaling } from './open-redis-scaling.js';

const keys = redisTestKeys('scaling');
const root = fileURLToPath(new URL('../../..', import.meta.url));
const roundTrip = fileURLToPath(new URL('../../../test/fixtures/redis/scaling-round-trip.ts', import.meta.url));

afterEach(async () => {
  await keys.cleanup();
});

afterAll(async () => {
  await keys.close();
});

describe('openRedisScaling', () => {
  const opened: RedisScaling[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((scaling) => scaling.close()));
  });

  it('streams, to another process, the events a worker publishes while it runs the job that process enqueued', async () => {
    const prefix = keys.prefix();
    const server = await openRedisScaling({ url: TEST_REDIS_URL, prefix });
    const worker = await openRedisScaling({ url: TEST_REDIS_URL, prefix });
    opened.push(server, worker);
    const streamed: ForgeEvent[] = [];
    await server.fanOut.followRun('run-9', (event) => streamed.push(event));
    worker.queue.work(async (job) => {
      const runId = (job.payload as { runId: string }).runId;
      const events: ForgeEvent[] = [1, 2, 3].map((seq) => ({ ts: '2026-12-03T10:00:00.000Z', run_id: runId, seq, type: 'tool-log', call_id: `c${seq}`, tool: 'noop', lines: [`step ${seq}`] }));
      await worker.fanOut.publish(runId, events);
      return { events: events.length };
    }, { concurrency: 1 });

    const outcome = await (await server.queue.enqueue('agent-run', { runId: 'run-9' }, { id: 'run-9' })).finished();

    expect(outcome).toMatchObject({ state: 'completed', result: { events: 3 } });
    await expect.poll(() => streamed.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it('lets a process that used the queue and the fan-out exit on its own once it closes them: no connection or timer left open', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', roundTrip, TEST_REDIS_URL, keys.prefix()], { cwd: root, env: { PATH: process.env['PATH'] ?? '' }, timeout: 25_000, killSignal: 'SIGKILL' }, (_error, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }));
    });

    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'closed ran job-1 tool-log,assistant-text-delta\n', stderr: '' });
  });

  it('rejects with RedisUnavailableError, within its connect timeout, when Redis does not answer', async () => {
    await expect(openRedisScaling({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 300 })).rejects.toMatchObject({ name: 'RedisUnavailableError', target: '127.0.0.1:1' });
  });
});
