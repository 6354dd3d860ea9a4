import type { RequestInit as UndiciRequestInit } from 'undici';
import { NetworkError } from '../core/index.js';
import { destinationRulesFrom, type DestinationOptions } from './destination-rules.js';
import { loadUndici } from './load-undici.js';
import { messageCappedBody } from './message-capped-body.js';
import { createPinnedAgent } from './pinned-agent.js';
import { shortUrl } from './short-url.js';
import { vetDestination } from './vet-destination.js';

/** The standard fetch signature, as HTTP clients such as the MCP SDK's transports take it. */
export type StreamFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Where requests may go (as for the guard), and the caps on what comes back. */
export interface StreamFetchOptions extends DestinationOptions {
  /** Bytes one message may have: an ordinary response's whole body, or one event of an event stream. Default 16 MiB. */
  readonly maxMessageBytes?: number;
  /**
   * Milliseconds until the response headers arrive and, for an ordinary response, until its body has
   * been read. An event stream is exempt once its headers are in: it may stay open for as long as the
   * server keeps it. Default 60 s (the MCP client's own request timeout is shorter).
   */
  readonly timeoutMs?: number;
}

const defaultMaxMessageBytes = 16 * 1024 * 1024;
const defaultTimeoutMs = 60_000;

/**
 * A standard fetch held to the SSRF guard's rules, for clients that need the response as a stream
 * (the MCP SDK's HTTP transports: an event stream never finishes, so the tools' guarded fetch, which
 * reads whole bodies, cannot serve them). What it shares with the guard is the judgement: every request (and, because the
 * SDK follows redirects itself by calling fetch again, every redirect hop) is vetted by
 * `vetDestination` against FORGE_ALLOW_HOSTS and FORGE_RESOLVE, then sent through a dispatcher pinned
 * to the vetted addresses. A server on a private or loopback address must be listed in
 * FORGE_ALLOW_HOSTS, exactly like any other self-hosted service. Throws `NetworkBlockedError` when
 * the guard refuses. Its caps are per message and per exchange (see `StreamFetchOptions`): a body or
 * event past the byte cap, or an exchange past the time cap, fails with `NetworkError` and the rest is
 * never downloaded.
 */
export function createGuardedStreamFetch(options: StreamFetchOptions = {}): StreamFetch {
  const rules = destinationRulesFrom(options);
  const maxMessageBytes = options.maxMessageBytes ?? defaultMaxMessageBytes;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  return async (url, init) => {
    const target = new URL(url);
    const shownUrl = shortUrl(target);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new NetworkError(shownUrl, `no complete response within ${timeoutMs} ms`)), timeoutMs);
    // A deadline never keeps the process alive by itself.
    timer.unref();
    const signal = init?.signal == null ? deadline.signal : AbortSignal.any([deadline.signal, init.signal]);
    let agent: Awaited<ReturnType<typeof createPinnedAgent>> | undefined;
    try {
      const destination = await vetDestination(target, rules, signal);
      agent = await createPinnedAgent(destination);
      const { fetch: undiciFetch } = await loadUndici();
      const response = (await undiciFetch(target, { ...(init as UndiciRequestInit), redirect: 'manual', dispatcher: agent, signal })) as unknown as Response;
      // A graceful close lets the response body (an event stream may stay open for long) finish
      // first, then frees the agent's sockets.
      void agent.close();
      const eventStream = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
      if (eventStream) clearTimeout(timer);
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (!eventStream && declared > maxMessageBytes) {
        await response.body?.cancel();
        throw new NetworkError(shownUrl, `the response declares ${declared} bytes, more than ${maxMessageBytes}, the cap on one message`);
      }
      if (response.body === null) {
        clearTimeout(timer);
        return response;
      }
      const body = messageCappedBody(response.body, { maxMessageBytes, eventStream, shownUrl }).pipeThrough(new TransformStream({ flush: () => clearTimeout(timer) }));
      return withBody(response, body);
    } catch (error) {
      clearTimeout(timer);
      void agent?.destroy();
      if (deadline.signal.aborted) throw deadline.signal.reason;
      throw error;
    }
  };
}

/** The same response (status, headers, final URL) with another body. */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const replaced = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // The SDK reads the final URL (after redirects) to judge same-origin redirects; a new Response has none.
  Object.defineProperty(replaced, 'url', { value: response.url });
  Object.defineProperty(replaced, 'redirected', { value: response.redirected });
  return replaced;
}
