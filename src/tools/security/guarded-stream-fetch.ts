import type { RequestInit as UndiciRequestInit } from 'undici';
import { destinationRulesFrom, type DestinationOptions } from './destination-rules.js';
import { loadUndici } from './load-undici.js';
import { createPinnedAgent } from './pinned-agent.js';
import { vetDestination } from './vet-destination.js';

/** The standard fetch signature, as HTTP clients such as the MCP SDK's transports take it. */
export type StreamFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A standard fetch held to the SSRF guard's rules, for clients that need the response as a stream
 * (the MCP SDK's HTTP transports: an event stream never finishes, so the tools' guarded fetch, which
 * reads whole bodies, cannot serve them). What it shares with the guard is the judgement: every request (and, because the
 * SDK follows redirects itself by calling fetch again, every redirect hop) is vetted by
 * `vetDestination` against FORGE_ALLOW_HOSTS and FORGE_RESOLVE, then sent through a dispatcher pinned
 * to the vetted addresses. A server on a private or loopback address must be listed in
 * FORGE_ALLOW_HOSTS, exactly like any other self-hosted service. Throws `NetworkBlockedError` when
 * the guard refuses.
 */
export function createGuardedStreamFetch(options: DestinationOptions = {}): StreamFetch {
  const rules = destinationRulesFrom(options);
  return async (url, init) => {
    const target = new URL(url);
    const destination = await vetDestination(target, rules, init?.signal ?? new AbortController().signal);
    const agent = await createPinnedAgent(destination);
    const { fetch: undiciFetch } = await loadUndici();
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
