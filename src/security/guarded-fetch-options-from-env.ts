import { parseAllowHosts } from './allow-hosts.js';
import type { GuardedFetchOptions } from './guarded-fetch.js';
import { parseResolveEntries } from './resolve-entries.js';

/**
 * Guard options from the environment: `FORGE_ALLOW_HOSTS` and `FORGE_RESOLVE` (both empty by default,
 * which leaves the guard fully closed). Throws `ConfigurationError` naming a malformed entry.
 */
export function guardedFetchOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): GuardedFetchOptions {
  return {
    allowHosts: parseAllowHosts(env['FORGE_ALLOW_HOSTS'] ?? ''),
    resolve: parseResolveEntries(env['FORGE_RESOLVE'] ?? ''),
  };
}
