import { ConfigurationError } from '../core/index.js';
import { hostPortKey, parseHostPort } from './host-port.js';
import { splitEntries } from './split-entries.js';

const allowHostsFormat =
  'FORGE_ALLOW_HOSTS is a comma-separated list of host:port pairs, e.g. FORGE_ALLOW_HOSTS=127.0.0.1:8888,searx.lan:443 (IPv6 in brackets: [::1]:8080). Each pair is let through exactly; nothing else is relaxed.';

/**
 * Parses `FORGE_ALLOW_HOSTS`. Returns the normalized `host:port` keys (so `127.1:80` becomes
 * `127.0.0.1:80`); empty entries are ignored. Throws `ConfigurationError` naming the first bad entry.
 */
export function parseAllowHosts(value: string): string[] {
  return splitEntries(value).map(parseAllowHostEntry);
}

/** One allow-list entry as a normalized `host:port` key; throws `ConfigurationError` when malformed. */
export function parseAllowHostEntry(entry: string): string {
  const hostPort = parseHostPort(entry.trim());
  if (hostPort === undefined) {
    throw new ConfigurationError('FORGE_ALLOW_HOSTS', `"${entry}" is not a host:port pair.`, allowHostsFormat);
  }
  return hostPortKey(hostPort);
}
