import { isIP } from 'node:net';
import { ConfigurationError } from '../core/index.js';
import { parseHostPort } from './host-port.js';
import { splitEntries } from './split-entries.js';

/** One `FORGE_RESOLVE` pin: requests to `host:port` connect to `address` without asking DNS. */
export interface ResolveEntry {
  /** Normalized like a URL host: lower case, no trailing dot. */
  readonly host: string;
  readonly port: number;
  /** An IPv4 or IPv6 address, without brackets. */
  readonly address: string;
}

const resolveFormat =
  'FORGE_RESOLVE is a comma-separated list of host:port:address entries, like curl --resolve, e.g. FORGE_RESOLVE=docs.example.test:443:127.0.0.1 (an IPv6 address may be bracketed: docs.example.test:443:[::1]). The guard still judges the pinned address.';

const resolveEntryPattern = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5}):(.+)$/;

/**
 * Parses `FORGE_RESOLVE`. Several entries may pin the same host:port to several addresses.
 * Throws `ConfigurationError` naming the first bad entry and the expected format.
 */
export function parseResolveEntries(value: string): ResolveEntry[] {
  return splitEntries(value).map(parseResolveEntry);
}

function parseResolveEntry(entry: string): ResolveEntry {
  const match = resolveEntryPattern.exec(entry);
  const hostPort = match === null ? undefined : parseHostPort(`${match[1]}:${match[2]}`);
  const rawAddress = match?.[3] ?? '';
  const address = rawAddress.startsWith('[') && rawAddress.endsWith(']') ? rawAddress.slice(1, -1) : rawAddress;
  if (hostPort === undefined || isIP(address) === 0) {
    throw new ConfigurationError('FORGE_RESOLVE', `"${entry}" is not a host:port:address entry.`, resolveFormat);
  }
  return { host: hostPort.host, port: hostPort.port, address };
}
