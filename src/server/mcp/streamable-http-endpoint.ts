import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { OPERATOR, type Principal } from '../../core/index.js';
import { BoundedEventStore } from './bounded-event-store.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './session-limits.js';

/** An MCP server for one session: the SDK's `Server` and `McpServer` both fit. */
export interface SessionServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface StreamableHttpEndpointOptions {
  /** Builds the server for a new session; each session gets its own. */
  readonly createServer: () => SessionServer;
  /** Largest request body read, in bytes; default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Sessions kept at once (started ones included); past it a new session gets 503. Default 100. */
  readonly maxSessions?: number;
  /** A session with no request open for this long is ended (its id then gets 404); default 10 minutes. */
  readonly sessionIdleMs?: number;
  /** The clock idleness is measured by; `Date.now` unless a test drives it. */
  readonly now?: () => number;
}

const defaultMaxBodyBytes = 4 * 1024 * 1024;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: SessionServer;
  /** The account that started it (`operator` without accounts): only its requests reach the session. */
  readonly owner: string;
  /** Requests of this session still being answered (an open event stream counts until it closes). */
  openRequests: number;
  lastActive: number;
}

/**
 * The MCP Streamable HTTP endpoint as a plain Node request handler, so `forge mcp serve` and a later
 * `forge serve` mount the same thing. Sessions are stateful: an `initialize` POST without a session id
 * starts one (with its own server and a bounded event store for `Last-Event-ID` resumption); later
 * POST, GET (the server's event stream) and DELETE requests carry `Mcp-Session-Id`. An unknown session
 * id gets 404, which tells a client to initialize again.
 *
 * Sessions are bounded: at most `maxSessions` at once, counting those still initializing, and one
 * with no open request for `sessionIdleMs` is ended (checked on every request and every minute). An
 * `initialize` past the cap, after idle sessions are swept, is answered 503 with `Retry-After`.
 * Host, Origin and token checks happen before this handler, in `listenHttp`.
 */
export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private starting = 0;
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: StreamableHttpEndpointOptions) {
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => void this.endIdleSessions(), Math.min(this.idleMs, 60_000)).unref();
  }

  /**
   * Answers one request as `caller` (the operator when none is given: a server without accounts). The
   * caller reaches the session's tools as its `authInfo`, and a session answers only the account that
   * started it: another account's request naming it is told it does not exist.
   */
  async handle(request: IncomingMessage, response: ServerResponse, caller: Principal = OPERATOR): Promise<void> {
    await this.endIdleSessions();
    (request as IncomingMessage & { auth?: AuthInfo }).auth = { token: '', clientId: ownerOf(caller), scopes: [...caller.scopes], extra: { principal: caller } };
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (session === undefined || session.owner !== ownerOf(caller)) return reply(response, 404, -32001, 'Session not found: initialize a new session.');
      this.track(session, response);
      if (request.method !== 'POST') return session.transport.handleRequest(request, response);
      const sessionBody = await this.readJson(request, response);
      return sessionBody === undefined ? undefined : session.transport.handleRequest(request, response, sessionBody);
    }
    if (request.method !== 'POST') return reply(response, 400, -32000, 'Bad request: no Mcp-Session-Id header; start a session with an initialize POST.');
    const body = await this.readJson(request, response);
    if (body === undefined) return undefined;
    if (!isInitializeRequest(body)) return reply(response, 400, -32000, 'Bad request: no Mcp-Session-Id header; the first request of a session must be initialize.');
    if (this.sessions.size + this.starting >= this.maxSessions) {
      response.setHeader('retry-after', String(Math.ceil(this.idleMs / 1000)));
      return reply(
        response,
        503,
        -32000,
        `Too many sessions: this server keeps at most ${this.maxSessions}. End one (DELETE with its Mcp-Session-Id) or retry once an idle one expires (after ${Math.round(this.idleMs / 1000)} s without requests).`,
      );
    }
    this.starting += 1;
    const server = this.options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      onsessioninitialized: (id) => {
        const session: Session = { transport, server, owner: ownerOf(caller), openRequests: 0, lastActive: this.now() };
        this.sessions.set(id, session);
        this.track(session, response);
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    } finally {
      this.starting -= 1;
      // An initialize that did not start a session leaves nothing behind.
      if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    }
  }

  /** Ends every session. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map(({ server }) => server.close().catch(() => undefined)));
  }

  /** Counts `response` as open on `session` until it finishes, so a live event stream is never idle. */
  private track(session: Session, response: ServerResponse): void {
    session.openRequests += 1;
    session.lastActive = this.now();
    response.once('close', () => {
      session.openRequests -= 1;
      session.lastActive = this.now();
    });
  }

  private async endIdleSessions(): Promise<void> {
    const cutoff = this.now() - this.idleMs;
    const idle = [...this.sessions].filter(([, session]) => session.openRequests === 0 && session.lastActive <= cutoff);
    for (const [id] of idle) this.sessions.delete(id);
    await Promise.all(idle.map(([, { server }]) => server.close().catch(() => undefined)));
  }

  /** The parsed JSON body, or undefined after answering a body that is too large or not JSON. */
  private async readJson(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    const limit = this.options.maxBodyBytes ?? defaultMaxBodyBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        reply(response, 413, -32600, `Request body larger than ${limit} bytes.`);
        return undefined;
      }
      chunks.push(chunk);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      reply(response, 400, -32700, 'Parse error: the body is not JSON.');
      return undefined;
    }
  }
}

function reply(response: ServerResponse, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function ownerOf(caller: Principal): string {
  return caller.userId === null ? 'operator' : `user:${caller.userId}`;
}
