import { ForgeError, NetworkError, systemErrorWithin, type GuardedFetch, type GuardedRequestInit } from '../core/index.js';
import { destinationRulesFrom, type DestinationOptions } from './destination-rules.js';
import { createGuardedResponse } from './guarded-response.js';
import { loadUndici } from './load-undici.js';
import { createPinnedAgent } from './pinned-agent.js';
import { readCappedBody } from './read-capped-body.js';
import { nextRedirectHop, type RequestHop } from './redirect-hop.js';
import { requestHeaders } from './request-headers.js';
import { shortUrl } from './short-url.js';
import { vetDestination } from './vet-destination.js';

/**
 * Where requests may go (`allowHosts` matching is exact on the URL's host and port; nothing else is
 * relaxed, and a redirect from an allowed host to another host is judged on its own), and the caps.
 */
export interface GuardedFetchOptions extends DestinationOptions {
  /** Redirects followed before giving up; default 5. */
  readonly maxRedirects?: number;
  /** Body bytes read before the rest is dropped and the response marked `truncated`; default 5 MiB. */
  readonly maxBytes?: number;
  /** Total time for all hops, DNS, connection and body; default 20 s. */
  readonly timeoutMs?: number;
}

const defaultMaxRedirects = 5;
const defaultMaxBytes = 5 * 1024 * 1024;
const defaultTimeoutMs = 20_000;
const defaultUserAgent = 'Mozilla/5.0 (compatible; Forge/0.1)';

/**
 * Creates the SSRF-guarded fetch every tool uses (see `GuardedFetch`). Each hop is vetted by
 * `vetDestination` and sent through a dispatcher pinned to the vetted addresses; redirects are followed
 * by hand so every hop is vetted; bytes, hops and total time are capped; a caller's signal is honoured.
 * The guard owns Host (from the vetted URL), message framing and hop-by-hop headers: a caller's are
 * dropped (see `requestHeaders`).
 * Throws `ConfigurationError` at creation when an allow-list or pin entry is malformed.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const rules = destinationRulesFrom(options);
  const maxRedirects = options.maxRedirects ?? defaultMaxRedirects;
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;

  return async (url: string, init: GuardedRequestInit = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal === undefined ? timeout : AbortSignal.any([timeout, init.signal]);
    let hop = firstHop(url, init);
    const redirects: string[] = [];
    try {
      for (;;) {
        const destination = await vetDestination(hop.url, rules, signal);
        const agent = await createPinnedAgent(destination);
        const { request } = await loadUndici();
        try {
          const response = await request(hop.url, {
            method: hop.method,
            headers: { ...hop.headers, 'accept-encoding': 'identity' },
            body: hop.body ?? null,
            signal,
            dispatcher: agent,
          });
          const headers = flattenHeaders(response.headers);
          const next = nextRedirectHop(response.statusCode, headers['location'], hop);
          if (next === undefined) {
            const { body, truncated } = await readCappedBody(response.body, maxBytes);
            return createGuardedResponse({ url: hop.url.href, status: response.statusCode, headers, body, truncated, redirects });
          }
          // A redirect's own body is never read. Destroying it makes undici emit an abort error that no
          // one awaits, so it is swallowed here rather than surfacing as an uncaught exception.
          response.body.on('error', () => undefined).destroy();
          if (redirects.length >= maxRedirects) {
            throw new NetworkError(shortUrl(url), `more than ${maxRedirects} redirects (last hop: ${shortUrl(hop.url)} → ${shortUrl(next.url)})`);
          }
          redirects.push(hop.url.href);
          hop = next;
        } finally {
          await agent.destroy();
        }
      }
    } catch (error) {
      if (ForgeError.isInstance(error)) throw error;
      if (timeout.aborted) throw new NetworkError(shortUrl(hop.url), `no complete response within ${timeoutMs} ms`, error);
      if (init.signal?.aborted === true) throw new NetworkError(shortUrl(hop.url), 'the request was cancelled', error);
      const system = systemErrorWithin(error);
      throw new NetworkError(shortUrl(hop.url), system?.message ?? describeFailure(error), error, system?.hint);
    }
  };
}

function firstHop(url: string, init: GuardedRequestInit): RequestHop {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new NetworkError(shortUrl(url), 'not a valid absolute URL (expected something like https://example.com/page)', error);
  }
  const headers = requestHeaders({ accept: '*/*', 'user-agent': defaultUserAgent }, init.headers);
  return { url: parsed, method: (init.method ?? 'GET').toUpperCase(), headers, body: init.body };
}

/** Response headers as single strings; repeated headers are joined the way HTTP allows. */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
