import { ForgeError } from '../../core/index.js';

/**
 * Forge could not reach, or lost, an MCP server: the connection, the handshake or the transport
 * failed. `permanent` is true when retrying cannot help (the guard refused the address, the server
 * refused the credentials, the configuration is wrong); the manager then stops reconnecting.
 */
export class McpConnectionError extends ForgeError {
  readonly serverName: string;
  readonly permanent: boolean;
  constructor(options: { serverName: string; message: string; permanent: boolean; hint?: string; cause?: unknown }) {
    super({ name: 'McpConnectionError', message: `MCP server "${options.serverName}": ${options.message}`, hint: options.hint, cause: options.cause });
    this.serverName = options.serverName;
    this.permanent = options.permanent;
  }
}

/**
 * A remote tool reported failure: a result with `isError`, or a JSON-RPC error for the call. The
 * message is the server's own text, so a model can read it and correct its call.
 */
export class McpToolCallError extends ForgeError {
  readonly serverName: string;
  readonly toolName: string;
  /** The JSON-RPC error code when the server answered with one; undefined for an `isError` result. */
  readonly code: number | undefined;
  constructor(options: { serverName: string; toolName: string; message: string; code?: number; cause?: unknown }) {
    super({ name: 'McpToolCallError', message: `MCP tool "${options.toolName}" on server "${options.serverName}" failed: ${options.message}`, cause: options.cause });
    this.serverName = options.serverName;
    this.toolName = options.toolName;
    this.code = options.code;
  }
}

/**
 * A stdio MCP server was asked for where subprocesses are not allowed. Stdio means running an
 * arbitrary program on this machine; only the local CLI allows it, and only with `--allow-stdio`.
 */
export class McpStdioRefusedError extends ForgeError {
  readonly serverName: string;
  constructor(serverName: string) {
    super({
      name: 'McpStdioRefusedError',
      message: `MCP server "${serverName}" uses the stdio transport, which starts a local program; it is refused here.`,
      hint: `Run the server over HTTP (Streamable HTTP or SSE) instead. On your own machine the CLI starts a stdio server added with \`forge mcp add ${serverName} "<command>" --transport stdio --allow-stdio\` (remembered for that server), or any stdio server with FORGE_MCP_ALLOW_STDIO=1; a server (\`forge mcp serve\`) never does.`,
    });
    this.serverName = serverName;
  }
}
