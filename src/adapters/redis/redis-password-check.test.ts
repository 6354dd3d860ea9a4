import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../core/index.js';
import { refuseRedisWithoutPassword } from './redis-password-check.js';

describe('refuseRedisWithoutPassword', () => {
  it.each(['redis://127.0.0.1:6379', 'redis://127.0.0.5', 'redis://[::1]:6379', 'redis://localhost:6379/2', 'redis://'])('lets %s (loopback) go without a password', async (url) => {
    await expect(refuseRedisWithoutPassword(url, { allowNoPassword: false })).resolves.toBeUndefined();
  });

  it.each(['redis://:s3cret@10.1.2.3:6379', 'rediss://forge:s3cret@redis.example.com:6380'])('lets %s (a password) go anywhere', async (url) => {
    await expect(refuseRedisWithoutPassword(url, { allowNoPassword: false })).resolves.toBeUndefined();
  });

  it.each([
    ['redis://10.1.2.3:6379', 'the Redis at 10.1.2.3:6379 without a password'],
    ['rediss://forge@[fd00::1]:6380', 'the Redis at [fd00::1]:6380 without a password'],
    ['redis://0.0.0.0', 'the Redis at 0.0.0.0:6379 without a password'],
    ['redis://forge-redis.invalid:6379', 'the Redis at forge-redis.invalid:6379 without a password'],
  ])('refuses %s, naming the fix and the opt-in', async (url, named) => {
    const refused = await refuseRedisWithoutPassword(url, { allowNoPassword: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect((refused as ConfigurationError).message).toContain(`FORGE_REDIS_URL: refusing to use ${named}: it is not a loopback address`);
    expect((refused as ConfigurationError).hint).toContain('FORGE_REDIS_URL=redis://:<password>@host:6379');
    expect((refused as ConfigurationError).hint).toContain('FORGE_REDIS_ALLOW_NO_PASSWORD=1');
  });

  it('lets a Redis without a password beyond loopback go with the opt-in', async () => {
    await expect(refuseRedisWithoutPassword('redis://10.1.2.3:6379', { allowNoPassword: true })).resolves.toBeUndefined();
  });
});
