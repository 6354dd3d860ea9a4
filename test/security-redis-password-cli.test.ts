import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';

/**
 * The scaled mode's Redis is where jobs for the workers are queued (issue 26): `forge serve` and
 * `forge worker` refuse a Redis without a password on an address that is not loopback, as `forge serve`
 * refuses to listen beyond loopback without auth, before connecting to anything (exit 2, a usage error),
 * naming the fix and the opt-in. A loopback Redis without a password (this machine's, in the other
 * scaled-mode tests) stays allowed.
 */
describe('forge serve and forge worker with a Redis without a password beyond loopback', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-redis-password-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it.each([['serve'], ['worker']])('forge %s refuses it, exit 2, naming the fix', async (command) => {
    const result = await runCli([command], { FORGE_HOME: home, FORGE_REDIS_URL: 'redis://10.255.255.1:6379' }, { timeoutMs: 30_000 });

    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("forge: FORGE_REDIS_URL: refusing to use the Redis at 10.255.255.1:6379 without a password: it is not a loopback address, so anyone who reaches it could queue jobs for the workers, read every run's events and cancel runs.");
    expect(result.stderr).toContain('hint: Set a password on Redis (requirepass, or an ACL user) and put it in the URL: FORGE_REDIS_URL=redis://:<password>@host:6379');
    expect(result.stderr).toContain('FORGE_REDIS_ALLOW_NO_PASSWORD=1');
    // Refused before any connection is tried: not the connection's error after its timeout.
    expect(result.stderr).not.toContain('did not answer');
    expect(result.stdout).not.toContain('listening');
  });
});
