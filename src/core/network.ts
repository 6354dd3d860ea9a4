/** A response read through the SSRF guard. The body is already fully read (and capped). */
export interface GuardedResponse {
  /** The URL that finally answered, after redirects. */
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body, at most the byte cap. */
  readonly body: Uint8Array;
  /** True when the body was cut at the byte cap. */
  readonly truncated: boolean;
  /** Every URL visited before `url`, in order. */
  readonly redirects: readonly string[];
  /** The body decoded as text (charset from the content type, UTF-8 otherwise). */
  text(): string;
}

export interface GuardedRequestInit {
  readonly method?: string;
  /**
   * Headers to send, any case. Host, Content-Length, Transfer-Encoding, Expect, Accept-Encoding and the
   * hop-by-hop headers (Connection, Keep-Alive, TE, Trailer, Upgrade, Proxy-*) are the guard's own and
   * a caller's are dropped: Host always names the vetted URL's host.
   */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/**
 * Fetch that refuses non-http(s) schemes and private, loopback, link-local, CGNAT, multicast,
 * unspecified and metadata addresses (after DNS resolution and on every redirect hop), unless the
 * host:port is explicitly allowed. Throws `NetworkBlockedError` when it refuses.
 */
export type GuardedFetch = (url: string, init?: GuardedRequestInit) => Promise<GuardedResponse>;
