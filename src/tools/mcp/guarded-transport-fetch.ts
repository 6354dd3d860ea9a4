import { isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { ConfigurationError } from '../../core/index.js';
import { parseAllowHostEntry } from '../security/allow-hosts.js';
import { systemDnsLookup, type ResolvedAddress } from '../security/dns-lookup.js';
import type { GuardedFetchOptions } from '../security/guarded-fetch.js';
import { hostPortKey, parseHostPort } from '../security/host-port.js';
import { createPinnedAgent } from '../security/pinned-agent.js';
import { vetDestination, type DestinationRules } from '../security/vet-destination.js';

/**
 * The fetch the MCP SDK's HTTP transports use, held to the SSRF guard's rules. The tools' guarded
 * fetch reads whole bodies, which an MCP event stream never finishes, so this one hands the response
 * back as a stream; what it shares with the guard is the judgement: every request (and, because the
 * SDK follows redirects itself by calling fetch again, every redirect hop) is vetted by
 * `vetDestination` against FORGE_ALLOW_HOSTS and FORGE_RESOLVE, then sent through a dispatcher pinned
 * to the vetted addresses. A server on a private or loopback address must be listed in
 * FORGE_ALLOW_HOSTS, exactly like any other self-hosted service. Throws `NetworkBlockedError` when
 * the guard refuses.
 */
export function createGuardedTransportFetch(options: GuardedFetchOptions = {}): FetchLike {
  const rules: DestinationRules = {
    allowedHostPorts: new Set((options.allowHosts ?? []).map(parseAllowHostEntry)),
    pins: pinsByHostPort(options.resolve ?? []),
    lookup: options.lookup ?? systemDnsLookup,
  };
  return async (url, init) => {
    const target = new URL(url);
    const destination = await vetDestination(target, rules, init?.signal ?? new AbortController().signal);
    const agent = createPinnedAgent(destination);
    try {
      const response = await undiciFetch(target, { ...(init as UndiciRequestInit), redirect: 'manual', dispatcher: agent });
      // A graceful close lets the response body (an event stream may stay open for long) finish
      // first, then frees the agent's sockets.
      void agent.close();
      return response as unknown as Response;
    } catch (error) {
      void agent.destroy();
      throw error;
    }
  };
}

function pinsByHostPort(entries: NonNullable<GuardedFetchOptions['resolve']>): Map<string, ResolvedAddress[]> {
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
