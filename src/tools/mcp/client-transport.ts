import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpTransportKind } from '../../core/index.js';
import { displayUrl } from './display-url.js';
import { McpConnectionError, McpStdioRefusedError } from './mcp-errors.js';

/** Where and how to reach one MCP server, with its headers already opened from the secret box. */
export interface McpEndpoint {
  readonly serverName: string;
  readonly transport: McpTransportKind;
  /** The endpoint URL; for stdio, the command line as a JSON array. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Whether stdio servers (local subprocesses) may be started: `allow` every one (FORGE_MCP_ALLOW_STDIO=1),
 * `remembered` only those added with `--allow-stdio` (the local CLI's default), `refuse` none (servers).
 */
export type StdioPermission = 'allow' | 'remembered' | 'refuse';

export interface ClientTransportOptions {
  /** The guarded fetch every HTTP request goes through. */
  readonly fetch: FetchLike;
  /** Whether this endpoint, if it is a stdio server, may start its program. */
  readonly stdio: 'allow' | 'refuse';
}

/**
 * The SDK transport for an endpoint. HTTP transports send the endpoint's headers on every request,
 * through the guarded fetch. A stdio server starts with the SDK's minimal inherited environment
 * (PATH, HOME, USER and the like), so Forge's own secrets never reach the subprocess.
 */
export function createClientTransport(endpoint: McpEndpoint, options: ClientTransportOptions): Transport {
  switch (endpoint.transport) {
    case 'streamable-http':
      return new StreamableHTTPClientTransport(endpointUrl(endpoint), { fetch: options.fetch, requestInit: { headers: { ...endpoint.headers } } });
    case 'sse':
      return new SSEClientTransport(endpointUrl(endpoint), { fetch: options.fetch, requestInit: { headers: { ...endpoint.headers } } });
    case 'stdio': {
      if (options.stdio !== 'allow') throw new McpStdioRefusedError(endpoint.serverName);
      const [command, ...args] = stdioCommandLine(endpoint);
      return new StdioClientTransport({ command, args, stderr: 'ignore' });
    }
  }
}

function endpointUrl(endpoint: McpEndpoint): URL {
  try {
    return new URL(endpoint.url);
  } catch (error) {
    throw new McpConnectionError({ serverName: endpoint.serverName, message: `"${displayUrl(endpoint.url)}" is not a valid URL`, permanent: true, cause: error });
  }
}

function stdioCommandLine(endpoint: McpEndpoint): [string, ...string[]] {
  const parsed: unknown = JSON.parse(endpoint.url);
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === 'string')) {
    throw new McpConnectionError({ serverName: endpoint.serverName, message: 'the stdio command line is not a JSON array of strings', permanent: true });
  }
  return parsed as [string, ...string[]];
}
