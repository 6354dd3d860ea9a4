import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from '../../test/support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from '../../test/support/redis-test-keys.js';
import { createSchedule, fireDueSchedules, openRuntime, RUN_JOB, type ForgeRuntime } from '../compose/index.js';

/** Schedules fired by two processes at once (two scaled runtimes on one PostgreSQL store and one Redis): each slot queues one run. */
describe('schedules', () => {
  const schema = freshSchemaName();
  const keys = redisTestKeys('schedules');
  const homes: string[] = [];
  const runtimes: ForgeRuntime[] = [];

  beforeAll(async () => {
    await createSchema(schema);
    const prefix = keys.prefix();
    for (let index = 0; index < 2; index += 1) {
      const home = await mkdtemp(path.join(tmpdir(), 'forge-schedules-'));
      homes.push(home);
      const env = { FORGE_HOME: home, FORGE_DATABASE_URL: postgresTestUrl(schema), FORGE_REDIS_URL: TEST_REDIS_URL, FORGE_REDIS_PREFIX: prefix, FORGE_SECRET_KEY: 'd'.repeat(64), OPENAI_API_KEY: 'test-key', FORGE_MODEL: 'openai:gpt-4.1-mini' };
      runtimes.push(await openRuntime(env, home, { mcp: { startupWaitMs: 0 } }));
    }
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  });

  it('refuses a request a worker could not parse, before anything is stored', async () => {
    await expect(createSchedule(runtimes[0]!, { name: 'broken', everyMs: 60_000, request: { kind: 'task' } as never })).rejects.toThrow(/task/);
    expect(await runtimes[0]!.store.schedules.list()).toEqual([]);
  });

  it('fires each due slot once however many processes tick at once, each firing a queued run for a worker', async () => {
    const [first, second] = runtimes as [ForgeRuntime, ForgeRuntime];
    const start = 1_700_000_000_000;
    const nightly = await createSchedule(first, { name: 'nightly', everyMs: 60_000, request: { kind: 'agent_task', task: 'summarise the day' }, firstDueMs: start });
    await createSchedule(first, { name: 'off-schedule', everyMs: 60_000, request: { kind: 'agent_task', task: 'never yet' }, firstDueMs: start + 3_600_000 });

    const ticks = await Promise.all([start + 1_000, start + 1_000, start + 61_000, start + 61_500].flatMap((now) => [fireDueSchedules(first, now), fireDueSchedules(second, now)]));
    const firings = ticks.flat();

    expect(firings.map((firing) => [firing.scheduleId, firing.slotMs]).sort()).toEqual([
      [nightly.id, start],
      [nightly.id, start + 60_000],
    ]);
    const runIds = firings.map((firing) => ('runId' in firing ? firing.runId : firing.error));
    for (const runId of runIds) {
      expect(await first.store.runs.get(runId)).toMatchObject({ status: 'queued', task: 'summarise the day' });
      expect(await first.queue.get(runId)).toMatchObject({ kind: RUN_JOB, state: 'waiting' });
    }
    expect(await second.store.schedules.get(nightly.id)).toMatchObject({ lastFiredMs: start + 60_000, nextDueMs: start + 120_000 });
  });
});
