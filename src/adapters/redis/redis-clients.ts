import type { Redis } from 'ioredis';
import { connectRedis, duplicateConnection } from './redis-connection.js';
import { RedisSubscriber } from './redis-subscriber.js';

/**
 * Where a Redis-backed part of Forge finds Redis: a URL, whose connections it opens (bounded, see
 * `connectRedis`) and closes itself; or connections the caller opened, shares (`openRedisScaling`
 * gives one pair to the queue and the fan-out) and closes after every user of them has closed.
 */
export type RedisConnectionOptions =
  | { readonly url: string; readonly connectTimeoutMs?: number }
  | {
      /** For commands; BullMQ needs it opened with `maxRetriesPerRequest: null`, as `connectRedis` does. */
      readonly connection: Redis;
      /** The process's pub/sub connection; one of its own is made from `connection` when absent. */
      readonly subscriber?: RedisSubscriber;
    };

/** A command connection and a subscriber, with the close that ends only those opened here. */
export interface RedisClients {
  readonly connection: Redis;
  readonly subscriber: RedisSubscriber;
  close(): Promise<void>;
}

export async function openRedisClients(options: RedisConnectionOptions): Promise<RedisClients> {
  if ('url' in options) {
    const connection = await connectRedis(options.url, options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs });
    const subscriber = new RedisSubscriber(duplicateConnection(connection));
    return {
      connection,
      subscriber,
      close: async () => {
        await subscriber.close();
        await connection.quit().catch(() => connection.disconnect());
      },
    };
  }
  const { connection } = options;
  if (options.subscriber !== undefined) return { connection, subscriber: options.subscriber, close: async () => undefined };
  const subscriber = new RedisSubscriber(duplicateConnection(connection));
  return { connection, subscriber, close: () => subscriber.close() };
}
