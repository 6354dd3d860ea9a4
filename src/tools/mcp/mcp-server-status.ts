import type { ErrorInfo, McpTransportKind } from '../../core/index.js';

/**
 * Where a server's connection stands. `connecting`: the first attempt since Forge started (or since
 * it was added) is under way. `connected`: its tools are in the registry. `reconnecting`: the last
 * attempt failed or the session was lost; Forge tries again with backoff and its tools are out of the
 * registry meanwhile. `failed`: retrying cannot help (the guard refused the address, the server refused
 * the credentials, stdio is not allowed here); `forge mcp refresh` tries again on demand.
 */
export type McpConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'failed';

/** A server as `forge mcp list` shows it. Never carries header values. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: McpTransportKind;
  /** The endpoint with credentials in it (a password, query values) replaced by `…`. */
  readonly url: string;
  /** Names of the stored headers; their values stay sealed. */
  readonly headers: readonly string[];
  readonly state: McpConnectionState;
  readonly lastError: ErrorInfo | null;
  /** Connection attempts that failed since the last success. */
  readonly failedAttempts: number;
  /** When the next attempt is due (ISO-8601), while `reconnecting`. */
  readonly nextAttemptAt: string | null;
  /** Registry names of this server's tools that are registered now. */
  readonly tools: readonly string[];
  /** Remote tools the server offers that are not registered, with why (not enabled, or a name clash). */
  readonly skippedTools: readonly { readonly name: string; readonly reason: string }[];
  readonly enabledTools: readonly string[] | null;
  /** Whether its tools' `readOnlyHint` annotations are believed (`--trust-annotations`). */
  readonly trustAnnotations: boolean;
}

/** A registered remote tool, as `forge mcp tools <name>` shows it. */
export interface McpRegisteredTool {
  /** The registry name, `mcp__{server}__{tool}` or its short form. */
  readonly name: string;
  /** The tool's name on its server. */
  readonly remoteName: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}
