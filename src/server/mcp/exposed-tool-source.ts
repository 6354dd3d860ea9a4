import type { Principal } from '../../core/index.js';
import type { JsonSchemaObject } from '../../tools/mcp/index.js';

/** One tool Forge offers to MCP clients. */
export interface ExposedTool {
  /** Unique across every source of one server; `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  readonly description: string;
  /** The JSON Schema clients see; the server validates every call against it before the source runs. */
  readonly inputSchema: JsonSchemaObject;
}

/** What a call produced, as an MCP client receives it. */
export interface ExposedToolResult {
  /** Text for the client (and its model) to read. */
  readonly text: string;
  /** Machine-readable result, sent as `structuredContent`. */
  readonly structured?: Record<string, unknown>;
  /** True when the tool ran and failed: the client gets a result flagged `isError`, not a protocol error. */
  readonly isError: boolean;
}

/**
 * A family of tools Forge exposes over MCP: registry tools marked exposable today, published skills
 * and promoted synthesized tools as they land. A source lists what it offers `caller` (the principal of
 * the request: its scopes and its account decide, as on the REST API) and runs a call it would list to
 * that caller, with arguments that already passed the tool's input schema, as that caller's run. It
 * must not leak internals a customer should not see (traces, implementations): what `call` returns is
 * what the client gets.
 */
export interface ExposedToolSource {
  list(caller: Principal): Promise<ExposedTool[]>;
  call(name: string, args: Record<string, unknown>, signal: AbortSignal, caller: Principal): Promise<ExposedToolResult>;
}
