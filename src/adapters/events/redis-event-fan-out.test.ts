import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ForgeEvent, LiveEvent } from '../../core/index.js';
import { connectRedis, duplicateConnection, RedisSubscriber } from '../redis/index.js';
import { redisTestKeys, TEST_REDIS_URL } from '../../../test/support/redis-test-keys.js';
import { RedisEventFanOut } from './redis-event-fan-out.js';

const keys = redisTestKeys('fan-out');

function toolLog(runId: string, seq: number): ForgeEvent {
  return { ts: '2026-12-03T10:00:00.000Z', run_id: runId, seq, type: 'tool-log', call_id: `call-${seq}`, tool: 'noop', lines: [`line ${seq}`] };
}

function delta(runId: string, text: string): LiveEvent {
  return { ts: '2026-12-03T10:00:00.000Z', run_id: runId, type: 'assistant-text-delta', iteration: 1, delta: text };
}

/** Resolves with the first `count` items `collect` is called with. */
function collector<Item>(count: number): { collect: (item: Item) => void; items: Item[]; all: Promise<Item[]> } {
  const items: Item[] = [];
  let done!: (items: Item[]) => void;
  const all = new Promise<Item[]>((resolve) => (done = resolve));
  return {
    items,
    all,
    collect: (item) => {
      items.push(item);
      if (items.length === count) done(items.slice());
    },
  };
}

describe('RedisEventFanOut', () => {
  let prefix: string;
  let publisher: RedisEventFanOut;
  let follower: RedisEventFanOut;
  /** A plain connection, to read Redis's own view of the subscriptions and to publish raw messages. */
  let redis: Redis;

  beforeEach(async () => {
    prefix = keys.prefix();
    publisher = await RedisEventFanOut.open({ url: TEST_REDIS_URL, prefix });
    follower = await RedisEventFanOut.open({ url: TEST_REDIS_URL, prefix });
    redis = new Redis(TEST_REDIS_URL);
  });

  afterEach(async () => {
    await publisher.close();
    await follower.close();
    await redis.quit();
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    // Pub/sub writes no keys; nothing under the prefixes may have been left.
    expect(await keys.remaining()).toBe(0);
    await keys.close();
  });

  const subscribers = async (channel: string) => ((await redis.pubsub('NUMSUB', channel)) as [string, number])[1];

  it('carries a run’s events from one process to another, in seq order across batches', async () => {
    const received = collector<ForgeEvent>(6);
    await follower.followRun('run-1', received.collect);

    await publisher.publish('run-1', [toolLog('run-1', 1), toolLog('run-1', 2)]);
    await publisher.publish('run-1', [toolLog('run-1', 3)]);
    await publisher.publish('run-1', []);
    await publisher.publish('run-1', [toolLog('run-1', 4), toolLog('run-1', 5), toolLog('run-1', 6)]);

    expect(await received.all).toEqual([1, 2, 3, 4, 5, 6].map((seq) => toolLog('run-1', seq)));
  });

  it('resolves followRun only once subscribed: an event published right after it resolves arrives, run after run', async () => {
    const runs = Array.from({ length: 20 }, (_, index) => `run-${index}`);
    const received = collector<string>(runs.length);
    for (const runId of runs) {
      await follower.followRun(runId, (event) => received.collect(event.run_id));
      await publisher.publish(runId, [toolLog(runId, 1)]);
    }

    expect(await received.all).toEqual(runs);
  });

  it('follows a run once per process however many listeners it has there, and stops when the last one stops', async () => {
    const channel = `${prefix}:run:run-1`;
    const first: number[] = [];
    const second: number[] = [];
    const stopFirst = await follower.followRun('run-1', (event) => first.push(event.seq));
    const stopSecond = await follower.followRun('run-1', (event) => second.push(event.seq));
    expect(await subscribers(channel)).toBe(1);

    await publisher.publish('run-1', [toolLog('run-1', 1)]);
    await vi.waitFor(() => expect(second).toEqual([1]));
    await stopFirst();
    await stopFirst();
    await publisher.publish('run-1', [toolLog('run-1', 2)]);
    await vi.waitFor(() => expect(second).toEqual([1, 2]));
    expect(await subscribers(channel)).toBe(1);
    await stopSecond();

    expect(first).toEqual([1]);
    expect(await subscribers(channel)).toBe(0);
  });

  it('delivers nothing to a listener after it stops, while another run’s events still arrive', async () => {
    const stopped: ForgeEvent[] = [];
    const other = collector<ForgeEvent>(1);
    const stop = await follower.followRun('run-stopped', (event) => stopped.push(event));
    await follower.followRun('run-other', other.collect);
    await stop();

    await publisher.publish('run-stopped', [toolLog('run-stopped', 1)]);
    // Published after, on the same connection: once it has arrived, the first message has been dealt with.
    await publisher.publish('run-other', [toolLog('run-other', 1)]);

    expect(await other.all).toHaveLength(1);
    expect(stopped).toEqual([]);
  });

  it('drops malformed messages and other runs’ events, says so on stderr once, and goes on delivering', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const received = collector<ForgeEvent>(2);
    await follower.followRun('run-1', received.collect);
    const channel = `${prefix}:run:run-1`;

    await redis.publish(channel, 'not json');
    await redis.publish(channel, JSON.stringify([{ run_id: 'run-1', type: 'no-such-event' }]));
    await redis.publish(channel, JSON.stringify(toolLog('run-1', 9)));
    await redis.publish(channel, JSON.stringify([toolLog('run-2', 1), toolLog('run-1', 1)]));
    await publisher.publish('run-1', [toolLog('run-1', 2)]);

    expect((await received.all).map((event) => event.seq)).toEqual([1, 2]);
    const reports = stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.includes(channel));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/dropped a message that is not JSON/);
  });

  it('carries live events to every process that follows them, and isolates a listener that throws', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const received = collector<LiveEvent>(2);
    await follower.followLive(() => {
      throw new Error('a broken terminal');
    });
    await follower.followLive(received.collect);

    publisher.publishLive(delta('run-1', 'Hel'));
    publisher.publishLive(delta('run-2', 'lo'));

    expect(await received.all).toEqual([delta('run-1', 'Hel'), delta('run-2', 'lo')]);
  });

  it('unsubscribes everything it followed when it closes, and refuses to publish or follow after', async () => {
    await follower.followRun('run-1', () => undefined);
    await follower.followLive(() => undefined);
    expect(await subscribers(`${prefix}:run:run-1`)).toBe(1);

    await follower.close();

    expect(await subscribers(`${prefix}:run:run-1`)).toBe(0);
    expect(await subscribers(`${prefix}:live`)).toBe(0);
    await expect(follower.publish('run-1', [toolLog('run-1', 1)])).rejects.toMatchObject({ name: 'EventFanOutClosedError' });
    await expect(follower.followRun('run-1', () => undefined)).rejects.toMatchObject({ name: 'EventFanOutClosedError' });
    expect(() => follower.publishLive(delta('run-1', 'x'))).not.toThrow();
  });

  it('leaves connections it was given open when it closes, having stopped only its own follows', async () => {
    const connection = await connectRedis(TEST_REDIS_URL);
    const subscriber = new RedisSubscriber(duplicateConnection(connection));
    try {
      const sharing = await RedisEventFanOut.open({ connection, subscriber, prefix });
      await sharing.followRun('run-1', () => undefined);
      const stillFollowed: string[] = [];
      await subscriber.subscribe(`${prefix}:other`, (message) => stillFollowed.push(message));
      expect(await subscribers(`${prefix}:run:run-1`)).toBe(1);

      await sharing.close();

      expect(await subscribers(`${prefix}:run:run-1`)).toBe(0);
      expect(await connection.ping()).toBe('PONG');
      await connection.publish(`${prefix}:other`, 'still here');
      await vi.waitFor(() => expect(stillFollowed).toEqual(['still here']));
    } finally {
      await subscriber.close();
      await connection.quit();
    }
  });

  it('drops what it publishes while its connection is down instead of holding up the publisher until Redis is back', async () => {
    // A server that accepts and goes away: the connection is then reconnecting, and would queue a PUBLISH.
    const server = createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const connection = new Redis({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    await new Promise((resolve) => connection.once('connect', resolve));
    server.close();
    connection.stream.destroy();
    await vi.waitFor(() => expect(connection.status).toBe('reconnecting'));
    const subscriber = new RedisSubscriber(new Redis(TEST_REDIS_URL));
    const cut = await RedisEventFanOut.open({ connection, subscriber, prefix });
    try {
      await cut.publish('run-1', [toolLog('run-1', 1)]);
      cut.publishLive(delta('run-1', 'lost'));

      // Both returned while Redis was still unreachable: neither waited for the connection.
      expect(connection.status).not.toBe('ready');
    } finally {
      await cut.close();
      await subscriber.close();
      connection.disconnect();
    }
  });
});
