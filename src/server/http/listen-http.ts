import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { ConfigurationError } from '../../core/index.js';
import { MIN_TOKEN_LENGTH } from './bearer-token.js';
import { hostAllowList } from './host-allow-list.js';
import { isLoopbackAddress } from '../../security/loopback-address.js';
import { RateLimiter } from './rate-limiter.js';
import { accessRefusal, type HttpAccessRules } from './request-access.js';

/** Wrong tokens an address may send a minute; past that it is refused (429) until it may guess again, right token or not. */
const TOKEN_GUESSES_PER_MINUTE = 10;

/** A running HTTP listener. */
export interface HttpListener {
  /** `http://host:port`, with the port the system picked when 0 was asked for. */
  readonly origin: string;
  readonly host: string;
  /** The IP address actually bound (a name is resolved once, before binding). */
  readonly address: string;
  readonly port: number;
  /** The `Host` values requests must carry. */
  readonly allowedHosts: readonly string[];
  close(): Promise<void>;
}

export interface ListenHttpOptions {
  /** An IP address or a name (resolved once; the first address is bound). */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** More `Host` values to answer to than the bound address's own (see `hostAllowList`). */
  readonly allowedHosts?: readonly string[];
  /**
   * A bearer token every request must carry. Required to listen on anything but loopback: a server
   * reachable from other machines must not serve whoever finds it.
   */
  readonly token?: string;
  /** The handler authenticates every request itself (accounts); the listener may then bind beyond loopback without a token. */
  readonly authenticatedByHandler?: boolean;
  /** Foreign origins (exact `scheme://host[:port]`) whose pages may call in (the API's CORS origins). */
  readonly allowedOrigins?: readonly string[];
  /**
   * Paths a GET or HEAD reaches without the token and whatever its `Host` (a liveness probe sends no
   * credentials and names the server by the address it knows); a browser's foreign `Origin` is still
   * refused. Only for answers that reveal nothing (`/health`: "ok" and the version).
   */
  readonly probePaths?: readonly string[];
  /** How to fix a refusal to listen beyond loopback, for this server's users; default: set a token. */
  readonly beyondLoopbackHint?: string;
  readonly handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
}

/**
 * Serves `handle` on `host:port` behind the access rules every Forge HTTP server keeps, checked
 * before `handle` sees a request (see `accessRefusal`): the `Host` must be one the bound address
 * answers to, plus `allowedHosts`, whatever address is bound; a browser's `Origin` must be one of
 * them; and with a `token`, `Authorization: Bearer <token>` is required. Throws `ConfigurationError`,
 * before binding anything, for a non-loopback address without a token, a token shorter than
 * 16 characters, or a malformed allowed host. Errors a handler throws become a 500 so one bad
 * request cannot take the process down.
 */
export async function listenHttp(options: ListenHttpOptions): Promise<HttpListener> {
  if (options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigurationError('--token', `the access token must be at least ${MIN_TOKEN_LENGTH} characters long.`, 'Generate one with: openssl rand -hex 32');
  }
  const address = await bindAddress(options.host);
  if (options.token === undefined && options.authenticatedByHandler !== true && !isLoopbackAddress(address)) {
    throw new ConfigurationError(
      '--host',
      `refusing to listen on ${options.host}${address === options.host ? '' : ` (${address})`} without an access token: it is not a loopback address, so other machines could call the exposed tools.`,
      options.beyondLoopbackHint ?? 'Listen on 127.0.0.1 (the default), or set an access token (FORGE_MCP_TOKEN, or --token) that clients send as "Authorization: Bearer <token>".',
    );
  }
  // Validates --allowed-host before anything is bound; rebuilt with the real port once listening.
  hostAllowList({ address, port: options.port, requestedHost: options.host }, options.allowedHosts);
  const server = createServer();
  // A client gets 10 s to send its headers and 60 s for the whole request (slowloris); answers, event streams included, are not bounded here.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, address, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const rules: HttpAccessRules = {
    hosts: hostAllowList({ address, port, requestedHost: options.host }, options.allowedHosts),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedOrigins === undefined ? {} : { origins: options.allowedOrigins }),
  };
  const guesses = new RateLimiter({ perMinute: TOKEN_GUESSES_PER_MINUTE, burst: TOKEN_GUESSES_PER_MINUTE });
  // Attached before the event loop can accept a first connection, so no request is served without the rules.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const address = request.socket.remoteAddress ?? 'unknown';
    const probe = (request.method === 'GET' || request.method === 'HEAD') && options.probePaths?.includes(request.url ?? '') === true;
    // An address that used up its wrong guesses is refused before its token is even compared: a right guess then tells it nothing.
    if (!probe && rules.token !== undefined && !guesses.available(address)) {
      request.resume();
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many wrong access tokens from this address; try again in a minute.' }, id: null }));
      return;
    }
    const refusal = accessRefusal(request, probe ? { hosts: rules.hosts, ...(rules.origins === undefined ? {} : { origins: rules.origins }), probe: true } : rules);
    // A missing token is no guess; a wrong one is.
    if (refusal?.status === 401 && request.headers.authorization !== undefined) guesses.take(address);
    if (refusal !== undefined) {
      request.resume();
      response.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null }));
      return;
    }
    options.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: error instanceof Error ? error.message : 'Internal error' }, id: null }));
    });
  });
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    origin: `http://${host}:${port}`,
    host: options.host,
    address,
    port,
    allowedHosts: rules.hosts.entries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The IP address `host` names: itself when it is one, else its first DNS answer (what Node would bind). */
async function bindAddress(host: string): Promise<string> {
  if (isIP(host) !== 0) return host;
  try {
    return (await lookup(host)).address;
  } catch (error) {
    throw new ConfigurationError('--host', `cannot resolve "${host}" to an address to listen on (${error instanceof Error ? error.message : String(error)}).`);
  }
}
