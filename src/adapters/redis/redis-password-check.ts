import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ConfigurationError } from '../../core/index.js';
import { isLoopbackAddress } from '../../security/loopback-address.js';
import { redisTarget } from './redis-connection.js';

/**
 * Refuses (`ConfigurationError`) a Redis URL without a password whose host is not a loopback address,
 * unless `allowNoPassword` (FORGE_REDIS_ALLOW_NO_PASSWORD=1): whoever reaches such a Redis could queue
 * jobs for the workers, read every run's events and cancel runs. A host name is resolved first (as
 * `forge serve` does for `--host`), so `localhost` stays allowed; one that does not resolve is refused
 * too, since nothing says it is this machine. Nothing is connected.
 */
export async function refuseRedisWithoutPassword(url: string, options: { readonly allowNoPassword: boolean }): Promise<void> {
  const target = redisTarget(url);
  const parsed = new URL(url);
  if (parsed.password !== '' || options.allowNoPassword) return;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const address = isIP(host) !== 0 ? host : await lookup(host).then((found) => found.address, () => undefined);
  if (address !== undefined && isLoopbackAddress(address)) return;
  throw new ConfigurationError(
    'FORGE_REDIS_URL',
    `refusing to use the Redis at ${target}${address === undefined || address === host ? '' : ` (${address})`} without a password: it is not a loopback address, so anyone who reaches it could queue jobs for the workers, read every run's events and cancel runs.`,
    'Set a password on Redis (requirepass, or an ACL user) and put it in the URL: FORGE_REDIS_URL=redis://:<password>@host:6379 (rediss:// for TLS); or, on a network only Forge reaches, opt in with FORGE_REDIS_ALLOW_NO_PASSWORD=1.',
  );
}
