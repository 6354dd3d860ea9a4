import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { connectionFailure } from './connection-failure.js';
import { linearPatternSchemaValidator } from './json-schema-validator.js';
import { McpToolCallError } from './mcp-errors.js';

/** What a connection tells its owner about, outside of the calls it was asked to make. */
export interface McpConnectionListener {
  /** The server sent `notifications/tools/list_changed`; the owner decides when to list again. */
  onToolsChanged(): void;
  /** The transport closed without `close()` being called: the session is gone. */
  onLost(): void;
}

export interface McpClientConnectionOptions {
  readonly serverName: string;
  readonly transport: Transport;
  /** Bound on the handshake and on every list and call; a call's own signal may end it sooner. */
  readonly timeoutMs: number;
  readonly listener: McpConnectionListener;
  readonly clientName: string;
  readonly clientVersion: string;
}

const maxToolPages = 100;

/**
 * One live session with one MCP server, speaking the protocol through the official SDK client:
 * `initialize` and `notifications/initialized` on open, paginated `tools/list`, `tools/call`; the SDK
 * answers the server's `ping` itself.
 * The transport is whatever it was given (Streamable HTTP with its session id and Last-Event-ID
 * resumption, legacy HTTP+SSE, or stdio); this class knows only the protocol. Every request is bounded
 * by `timeoutMs`. Failures come out as `McpConnectionError` (the session is in doubt) or
 * `McpToolCallError` (the server answered, and the answer was an error).
 */
export class McpClientConnection {
  private closing = false;
  /** The transport's latest failure (a response stream that broke, say), which the SDK reports only as an event. */
  private transportFailure: { readonly error: Error; readonly at: number } | undefined;

  private constructor(
    private readonly client: Client,
    private readonly options: McpClientConnectionOptions,
  ) {}

  static async open(options: McpClientConnectionOptions): Promise<McpClientConnection> {
    const client = new Client(
      { name: options.clientName, version: options.clientVersion },
      {
        capabilities: {},
        // The SDK validates tool results against the server's output schemas; its patterns must run in linear time too.
        jsonSchemaValidator: linearPatternSchemaValidator(),
        // The SDK only signals the change; the owner lists again itself, with pagination and a timeout.
        listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => options.listener.onToolsChanged() } },
      },
    );
    const connection = new McpClientConnection(client, options);
    client.onerror = (error) => {
      connection.transportFailure = { error, at: performance.now() };
    };
    client.onclose = () => {
      if (!connection.closing) options.listener.onLost();
    };
    try {
      await client.connect(options.transport, { timeout: options.timeoutMs });
    } catch (error) {
      connection.closing = true;
      await client.close().catch(() => undefined);
      throw connectionFailure(options.serverName, error);
    }
    return connection;
  }

  /** Every tool the server offers, following `nextCursor` through all pages. */
  async listTools(): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxToolPages; page += 1) {
      const result = await this.request(() => this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.options.timeoutMs }));
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
    }
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const startedAt = performance.now();
    try {
      return (await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.options.timeoutMs, signal })) as CallToolResult;
    } catch (error) {
      // A response stream that broke mid-call (e.g. an event past the message cap) leaves the call to
      // time out; the broken stream, not the timeout, is what the caller needs to hear about.
      const broken = this.transportFailure;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && broken !== undefined && broken.at >= startedAt) {
        throw connectionFailure(this.options.serverName, broken.error);
      }
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
        throw new McpToolCallError({ serverName: this.options.serverName, toolName: name, message: error.message, code: error.code, cause: error });
      }
      throw connectionFailure(this.options.serverName, error);
    }
  }

  /** Ends the session (Streamable HTTP: DELETE with the session id, where the server allows it). */
  async close(): Promise<void> {
    this.closing = true;
    const transport = this.client.transport;
    if (transport !== undefined && 'terminateSession' in transport && typeof transport.terminateSession === 'function') {
      const terminate = (transport.terminateSession as () => Promise<void>).call(transport).catch(() => undefined);
      // A server that stopped answering must not hold up shutdown; the session then simply expires there.
      await Promise.race([terminate, new Promise((resolve) => setTimeout(resolve, this.options.timeoutMs).unref())]);
    }
    await this.client.close().catch(() => undefined);
  }

  private async request<Result>(send: () => Promise<Result>): Promise<Result> {
    try {
      return await send();
    } catch (error) {
      throw connectionFailure(this.options.serverName, error);
    }
  }
}
