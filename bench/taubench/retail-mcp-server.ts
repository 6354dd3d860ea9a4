import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { listenHttp } from '../../src/server/http/index.js';
import { StreamableHttpEndpoint } from '../../src/server/mcp/index.js';
import { retailDataHash } from './data-hash.js';
import { loadRetailData, type RetailData } from './retail-data.js';
import { RETAIL_TOOLS, invokeRetailTool } from './retail-tools.js';

/** One `tools/call` the server answered. */
export interface RetailToolCall {
  readonly tool: string;
  /** The call's arguments as received (`{}` when the client sent none). */
  readonly arguments: unknown;
  /** The tool's result string, exactly what the client got as text. */
  readonly result: string;
  readonly isError: boolean;
}

/** The τ-bench retail world served over MCP, with its live state open to the test that runs it. */
export interface RetailMcpServer {
  /** The Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The live state every session reads and writes. */
  readonly data: RetailData;
  /** Every call in order, since the start or the last `reset()`. */
  readonly calls: readonly RetailToolCall[];
  /** Replaces the state with a fresh copy of the data and empties `calls`; sessions stay open. */
  reset(): void;
  /** τ-bench's data hash of the live state (`retailDataHash`). */
  hash(): string;
  close(): Promise<void>;
}

export interface RetailMcpServerOptions {
  /** The starting state, used as is (not copied); default a fresh copy of the data. */
  readonly data?: RetailData;
  /** Default 0: the system picks a free port. The server binds 127.0.0.1 only. */
  readonly port?: number;
  /** Told of every call once it is answered (and recorded in `calls`). */
  readonly onCall?: (call: RetailToolCall) => void;
  /**
   * Whether the write tools say `destructiveHint: true` (the default, as they are). `false` leaves the
   * hint out, for tests of commands whose default policy would hold a destructive tool for an approval.
   */
  readonly destructiveWrites?: boolean;
}

const host = '127.0.0.1';

/**
 * Starts the retail world as an MCP server on loopback. Every tool is listed with τ-bench's own JSON
 * Schema as its input schema and annotations from its side effect (reads, `think` and
 * `transfer_to_human_agents` say `readOnlyHint: true`; the writes `readOnlyHint: false,
 * destructiveHint: true`). A call runs like τ-bench's `env.step`; a result that starts with `Error: `
 * or `Unknown action` comes back with `isError: true`, every result as one text item with the exact
 * string. Arguments are not checked against the schema first: the tool's own checks answer, as in
 * τ-bench. Requests for any other Host header are refused (DNS rebinding).
 */
export async function startRetailMcpServer(options: RetailMcpServerOptions = {}): Promise<RetailMcpServer> {
  let data = options.data ?? loadRetailData();
  const calls: RetailToolCall[] = [];
  const tools: Tool[] = RETAIL_TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as Tool['inputSchema'],
    annotations: tool.writes ? { readOnlyHint: false, ...(options.destructiveWrites === false ? {} : { destructiveHint: true }) } : { readOnlyHint: true },
  }));

  const createSessionServer = () => {
    const server = new Server({ name: 'taubench-retail', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
      const args = request.params.arguments ?? {};
      const result = invokeRetailTool(data, request.params.name, args);
      const isError = result.startsWith('Error: ') || result.startsWith('Unknown action');
      const call = { tool: request.params.name, arguments: args, result, isError };
      calls.push(call);
      options.onCall?.(call);
      return { content: [{ type: 'text', text: result }], ...(isError ? { isError: true } : {}) };
    });
    return server;
  };

  // listenHttp checks every request's Host against the address and port it bound.
  const endpoint = new StreamableHttpEndpoint({ createServer: createSessionServer });
  const listener = await listenHttp({ host, port: options.port ?? 0, handle: (request, response) => endpoint.handle(request, response) });

  return {
    url: `${listener.origin}/mcp`,
    get data() {
      return data;
    },
    calls,
    reset() {
      data = loadRetailData();
      calls.length = 0;
    },
    hash: () => retailDataHash(data),
    async close() {
      await endpoint.close();
      await listener.close();
    },
  };
}
