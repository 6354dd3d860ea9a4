import { isIP } from 'node:net';
import { NetworkBlockedError, NetworkError, systemErrorOf } from '../core/index.js';
import { describeBlockedAddress } from './blocked-address.js';
import { describeBlockedHostName } from './blocked-host-name.js';
import type { DnsLookup, ResolvedAddress } from './dns-lookup.js';
import { hostPortKey, hostPortOfUrl } from './host-port.js';
import { shortUrl } from './short-url.js';

/** What the guard knows before it connects anywhere. */
export interface DestinationRules {
  /** Normalized `host:port` keys from FORGE_ALLOW_HOSTS. */
  readonly allowedHostPorts: ReadonlySet<string>;
  /** Addresses pinned by FORGE_RESOLVE, by `host:port` key. */
  readonly pins: ReadonlyMap<string, readonly ResolvedAddress[]>;
  readonly lookup: DnsLookup;
}

/** Where a request may connect: the only addresses the socket layer will be given. */
export interface VettedDestination {
  /** The host as sockets take it: a name, an IPv4, or an IPv6 without brackets. */
  readonly connectHost: string;
  /** For a name, the vetted addresses it resolved (or was pinned) to; for an IP literal, the literal. */
  readonly addresses: readonly ResolvedAddress[];
}

/**
 * Decides whether `url` may be fetched and where to connect. Refuses (with `NetworkBlockedError`)
 * schemes other than http and https, and any destination that is, or resolves to, a blocked address,
 * unless its exact host:port is allowed. Every address of a name must pass, since the socket layer
 * may use any of them. Resolves the name once; the caller must connect only to the returned addresses.
 */
export async function vetDestination(url: URL, rules: DestinationRules, signal: AbortSignal): Promise<VettedDestination> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkBlockedError(
      shortUrl(url),
      `${url.protocol} URLs are not allowed; only http and https can be fetched`,
      'Tools reach the network over http and https only; local files and other protocols are out of reach by design. Use an http:// or https:// URL.',
    );
  }
  const hostPort = hostPortOfUrl(url);
  const key = hostPortKey(hostPort);
  const allowed = rules.allowedHostPorts.has(key);
  const refuse = (reason: string): never => {
    throw new NetworkBlockedError(
      shortUrl(url),
      reason,
      `If you mean to reach ${key} (a self-hosted service or a test fixture), add it to FORGE_ALLOW_HOSTS, e.g. FORGE_ALLOW_HOSTS=${key}. Only that exact host:port is let through.`,
    );
  };

  const literal = hostPort.host.startsWith('[') ? hostPort.host.slice(1, -1) : hostPort.host;
  const literalFamily = isIP(literal);
  if (literalFamily !== 0) {
    const reason = allowed ? undefined : describeBlockedAddress(literal);
    if (reason !== undefined) refuse(`${literal} is ${reason}`);
    return { connectHost: literal, addresses: [{ address: literal, family: literalFamily === 6 ? 6 : 4 }] };
  }

  const name = hostPort.host;
  const nameReason = allowed ? undefined : describeBlockedHostName(name);
  if (nameReason !== undefined) refuse(`${name} is ${nameReason}`);

  const pinned = rules.pins.get(key);
  const addresses = pinned ?? (await resolveName(url, name, rules.lookup, signal));
  if (!allowed) {
    for (const { address } of addresses) {
      const reason = describeBlockedAddress(address);
      if (reason === undefined) continue;
      refuse(pinned === undefined ? `${name} resolves to ${address}, ${reason}` : `${name} is pinned by FORGE_RESOLVE to ${address}, ${reason}`);
    }
  }
  return { connectHost: name, addresses };
}

async function resolveName(url: URL, name: string, lookup: DnsLookup, signal: AbortSignal): Promise<readonly ResolvedAddress[]> {
  signal.throwIfAborted();
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await Promise.race([lookup(name), rejectOnAbort(signal)]);
  } catch (error) {
    if (signal.aborted) throw error;
    const system = systemErrorOf(error, name);
    throw new NetworkError(shortUrl(url), system?.message ?? `could not resolve ${name}`, error, system?.hint);
  }
  if (addresses.length === 0) throw new NetworkError(shortUrl(url), `${name} resolved to no addresses`);
  return addresses;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
