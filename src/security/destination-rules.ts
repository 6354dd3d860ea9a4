import { isIP } from 'node:net';
import { ConfigurationError } from '../core/index.js';
import { parseAllowHostEntry } from './allow-hosts.js';
import { systemDnsLookup, type DnsLookup, type ResolvedAddress } from './dns-lookup.js';
import { hostPortKey, parseHostPort } from './host-port.js';
import type { ResolveEntry } from './resolve-entries.js';
import type { DestinationRules } from './vet-destination.js';

/** What decides where a guarded request may go: the allow list, the pins and the resolver. */
export interface DestinationOptions {
  /** `host:port` pairs (FORGE_ALLOW_HOSTS) let through even when they are, or resolve to, blocked addresses. */
  readonly allowHosts?: readonly string[];
  /** Names pinned to addresses without DNS (FORGE_RESOLVE). The pinned address is still judged. */
  readonly resolve?: readonly ResolveEntry[];
  /** Resolver for host names; defaults to the system resolver. Tests inject their own. */
  readonly lookup?: DnsLookup;
}

/** The rules `vetDestination` applies; throws `ConfigurationError` for a malformed allow or pin entry. */
export function destinationRulesFrom(options: DestinationOptions): DestinationRules {
  return {
    allowedHostPorts: new Set((options.allowHosts ?? []).map(parseAllowHostEntry)),
    pins: pinsByHostPort(options.resolve ?? []),
    lookup: options.lookup ?? systemDnsLookup,
  };
}

function pinsByHostPort(entries: readonly ResolveEntry[]): Map<string, ResolvedAddress[]> {
  const pins = new Map<string, ResolvedAddress[]>();
  for (const entry of entries) {
    const hostPort = parseHostPort(`${entry.host}:${entry.port}`);
    const family = isIP(entry.address);
    if (hostPort === undefined || family === 0) {
      throw new ConfigurationError('FORGE_RESOLVE', `"${entry.host}:${entry.port}:${entry.address}" does not name a valid host, port and IP address.`);
    }
    const key = hostPortKey(hostPort);
    pins.set(key, [...(pins.get(key) ?? []), { address: entry.address, family: family === 6 ? 6 : 4 }]);
  }
  return pins;
}
