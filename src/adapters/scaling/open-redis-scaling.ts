import { RedisEventFanOut } from '../events/index.js';
import { BullmqJobQueue, type BullmqJobQueueOptions } from '../queue/bullmq/index.js';
import { openRedisClients } from '../redis/index.js';

export interface RedisScalingOptions {
  /** `FORGE_REDIS_URL`: `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  readonly url: string;
  /** Starts every key and channel (`<prefix>:<queue name>:…`, `<prefix>:run:<runId>`, `<prefix>:live`); default `forge`. */
  readonly prefix?: string;
  /** How long the first connection may take before `RedisUnavailableError`; default 5 s. */
  readonly connectTimeoutMs?: number;
  /** The job queue's settings (its name, locks, stall detection, ended jobs kept). */
  readonly queue?: Pick<BullmqJobQueueOptions, 'name' | 'lockDurationMs' | 'stalledIntervalMs' | 'maxStalledCount' | 'keepEnded'>;
}

/** One process's share of the scaled mode's Redis: the durable job queue and the event fan-out. */
export interface RedisScaling {
  readonly queue: BullmqJobQueue;
  readonly fanOut: RedisEventFanOut;
  /** Closes the queue (its workers' attempts settle first), then the fan-out, then the connections. */
  close(): Promise<void>;
}

/**
 * Opens the queue and the fan-out on shared connections: one command connection (BullMQ's queue,
 * Forge's own reads, every PUBLISH) and one subscriber (cancellations and followed runs), plus those
 * BullMQ opens itself (one per worker, one event reader). Rejects with `RedisUnavailableError` when
 * Redis does not answer within the connect timeout, having opened nothing that stays open.
 */
export async function openRedisScaling(options: RedisScalingOptions): Promise<RedisScaling> {
  const clients = await openRedisClients({ url: options.url, ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }) });
  const shared = { connection: clients.connection, subscriber: clients.subscriber, ...(options.prefix === undefined ? {} : { prefix: options.prefix }) };
  let queue: BullmqJobQueue | undefined;
  try {
    queue = await BullmqJobQueue.open({ ...options.queue, ...shared });
    const fanOut = await RedisEventFanOut.open(shared);
    const opened = queue;
    let closing: Promise<void> | undefined;
    return {
      queue: opened,
      fanOut,
      close: () =>
        (closing ??= (async () => {
          await opened.close();
          await fanOut.close();
          await clients.close();
        })()),
    };
  } catch (error) {
    await queue?.close();
    await clients.close();
    throw error;
  }
}
