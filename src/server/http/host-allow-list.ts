import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ConfigurationError } from '../../core/index.js';
import { isLoopbackAddress, isWildcardAddress } from '../../security/loopback-address.js';

/** A `Host` (or origin host) in one spelling: lower-case, canonical IP text, port always present. */
interface NormalizedHost {
  readonly hostName: string;
  readonly port: string;
}

// A Host header is a name or an IP literal and an optional port; anything else (userinfo, paths,
// spaces, zone ids) is refused before the URL parser gets a chance to reinterpret it.
const hostShape = /^[A-Za-z0-9._\-[\]:]+$/;
const explicitPort = /^(?:\[[^\]]*\]|[^:]*):\d+$/;

/** Parses `name[:port]`, `a.b.c.d[:port]` or `[v6][:port]` as HTTP spells it; undefined when it is not one. */
export function normalizeHost(text: string, defaultPort = '80'): NormalizedHost | undefined {
  if (!hostShape.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  if (url.hostname === '' || url.username !== '' || url.password !== '' || url.pathname !== '/') return undefined;
  return { hostName: url.hostname, port: url.port === '' ? defaultPort : url.port };
}

/**
 * The `Host` values a server accepts: the host:port pairs it can be reached at, and names an operator
 * added. A request whose Host is not on the list is refused, which is what defeats DNS rebinding (a
 * browser sent to our address by a name the attacker controls still says that name in Host).
 */
export interface HostAllowList {
  /** Whether a `Host` header value (or an origin's host, with `defaultPort` for its scheme) is allowed. */
  allows(host: string, defaultPort?: string): boolean;
  /** The allowed values, for messages. */
  readonly entries: readonly string[];
}

/**
 * The allow-list of a server bound to `address:port`: the address itself; `localhost` (and the plain
 * IPv4 form of a mapped address) when it is loopback; every loopback and interface address of this
 * machine when it is a wildcard; the name it was asked to bind, when that was a name. `extra` entries
 * are added as written: `name:port` allows exactly that, a bare `name` allows that name on any port
 * (what a reverse proxy in front sends). Throws `ConfigurationError` for an entry that is not a host.
 */
export function hostAllowList(bound: { readonly address: string; readonly port: number; readonly requestedHost: string }, extra: readonly string[] = []): HostAllowList {
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  const entries: string[] = [];
  const addExact = (host: string) => {
    const normalized = normalizeHost(host);
    if (normalized === undefined) return;
    const key = `${normalized.hostName}:${normalized.port}`;
    if (!exact.has(key)) entries.push(host);
    exact.add(key);
  };
  for (const address of reachableAddresses(bound.address)) addExact(`${bracketed(address)}:${bound.port}`);
  if (!isIPv4(bound.requestedHost) && !isIPv6(bound.requestedHost)) addExact(`${bound.requestedHost}:${bound.port}`);
  for (const entry of extra) {
    const normalized = normalizeHost(entry);
    if (normalized === undefined) {
      throw new ConfigurationError('--allowed-host', `"${entry}" is not a host name, an IP address or host:port.`, 'Write a name (forge.example.com), name:port, or a bracketed IPv6 address ([::1]:8765).');
    }
    if (explicitPort.test(entry)) addExact(entry);
    else {
      anyPort.add(normalized.hostName);
      entries.push(entry);
    }
  }
  return {
    entries,
    allows(host, defaultPort = '80') {
      const normalized = normalizeHost(host, defaultPort);
      if (normalized === undefined) return false;
      return exact.has(`${normalized.hostName}:${normalized.port}`) || anyPort.has(normalized.hostName);
    },
  };
}

function reachableAddresses(address: string): string[] {
  if (isWildcardAddress(address)) {
    const local = Object.values(networkInterfaces()).flatMap((interfaces) => (interfaces ?? []).map((entry) => entry.address));
    // `::` is dual-stack, so IPv4 clients reach it too; `0.0.0.0` takes IPv4 only.
    const families = isIPv6(address) ? local : local.filter((entry) => isIPv4(entry));
    return [...new Set(['localhost', '127.0.0.1', ...(isIPv6(address) ? ['::1'] : []), ...families])];
  }
  if (!isLoopbackAddress(address)) return [address];
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return [address, 'localhost', ...(mappedIpv4 === undefined ? [] : [mappedIpv4])];
}

function bracketed(address: string): string {
  return isIPv6(address) ? `[${address}]` : address;
}
