import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the scaled mode's tests use (a real one; see .ci/run). */
export const TEST_REDIS_URL = process.env['FORGE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Key prefixes for one test file: each test takes a new one (`prefix()`), so files running in
 * parallel on one Redis never meet, and `cleanup()` deletes every key under the prefixes handed out
 * (never FLUSHALL), returning how many it deleted. `close()` ends its connection.
 */
export function redisTestKeys(label: string): { prefix(): string; cleanup(): Promise<number>; remaining(): Promise<number>; close(): Promise<void> } {
  const prefixes: string[] = [];
  let connection: Redis | undefined;
  const redis = () => (connection ??= new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 }));
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis().scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    return keys;
  };
  return {
    prefix: () => {
      const prefix = `forge-test-${label}-${randomUUID().slice(0, 8)}`;
      prefixes.push(prefix);
      return prefix;
    },
    cleanup: async () => {
      let deleted = 0;
      for (const prefix of prefixes.splice(0)) {
        const keys = await keysUnder(prefix);
        if (keys.length > 0) deleted += await redis().unlink(...keys);
      }
      return deleted;
    },
    remaining: async () => {
      let count = 0;
      for (const prefix of prefixes) count += (await keysUnder(prefix)).length;
      return count;
    },
    close: async () => {
      await connection?.quit();
      connection = undefined;
    },
  };
}
