import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BoundedEventStore } from './bounded-event-store.js';

/** An MCP server for one session: the SDK's `Server` and `McpServer` both fit. */
export interface SessionServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface StreamableHttpEndpointOptions {
  /** Builds the server for a new session; each session gets its own. */
  readonly createServer: () => SessionServer;
  /**
   * `Host` header values accepted (e.g. `127.0.0.1:8765`). Given, requests for any other host are
   * refused, which defeats DNS rebinding against a server bound to loopback.
   */
  readonly allowedHosts?: readonly string[];
  /** Largest request body read, in bytes; default 4 MiB. */
  readonly maxBodyBytes?: number;
}

const defaultMaxBodyBytes = 4 * 1024 * 1024;

/**
 * The MCP Streamable HTTP endpoint as a plain Node request handler, so `forge mcp serve` and a later
 * `forge serve` mount the same thing. Sessions are stateful: an `initialize` POST without a session id
 * starts one (with its own server and a bounded event store for `Last-Event-ID` resumption); later
 * POST, GET (the server's event stream) and DELETE requests carry `Mcp-Session-Id`. An unknown session
 * id gets 404, which tells a client to initialize again.
 */
export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: SessionServer }>();

  constructor(private readonly options: StreamableHttpEndpointOptions) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (session === undefined) return reply(response, 404, -32001, 'Session not found: initialize a new session.');
      if (request.method !== 'POST') return session.transport.handleRequest(request, response);
      const sessionBody = await this.readJson(request, response);
      return sessionBody === undefined ? undefined : session.transport.handleRequest(request, response, sessionBody);
    }
    if (request.method !== 'POST') return reply(response, 400, -32000, 'Bad request: no Mcp-Session-Id header; start a session with an initialize POST.');
    const body = await this.readJson(request, response);
    if (body === undefined) return undefined;
    if (!isInitializeRequest(body)) return reply(response, 400, -32000, 'Bad request: no Mcp-Session-Id header; the first request of a session must be initialize.');
    const server = this.options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      ...(this.options.allowedHosts === undefined ? {} : { enableDnsRebindingProtection: true, allowedHosts: [...this.options.allowedHosts] }),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  /** Ends every session. */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map(({ server }) => server.close().catch(() => undefined)));
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
