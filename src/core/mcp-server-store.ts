/** How Forge talks to a remote MCP server. `stdio` exists only for the local CLI's explicit opt-in. */
export type McpTransportKind = 'streamable-http' | 'sse' | 'stdio';

/**
 * A remote MCP server the user added. The record outlives the process: on start Forge reconnects to
 * every stored server. Header values (tokens, API keys) are stored only sealed by the secret box;
 * the store never sees them in clear.
 */
export interface McpServerRecord {
  /** Unique; the `{server}` in `mcp__{server}__{tool}`. */
  readonly name: string;
  readonly transport: McpTransportKind;
  /** The endpoint URL (for `stdio`, the command line as a JSON array: `["command", "arg", …]`). */
  readonly url: string;
  /** The sealed JSON of the header map, or null when the server needs no headers. */
  readonly sealedHeaders: string | null;
  /** Remote tool names to register; null registers every tool the server offers. */
  readonly enabledTools: readonly string[] | null;
  /**
   * Whether the server's `readOnlyHint` annotations are believed. False by default: its tools are then
   * all treated as tools that may write, so a skill replay proves every argument before calling them.
   */
  readonly trustAnnotations: boolean;
  /**
   * A stdio server whose local program the person who added it allowed to start (`--allow-stdio`); the
   * local CLI starts it again on later commands. Absent or false: refused unless FORGE_MCP_ALLOW_STDIO=1.
   * Servers never start stdio programs, whatever this says.
   */
  readonly allowStdio?: boolean;
  /**
   * Why the stored row cannot be used as it is (a column damaged outside Forge); absent when it is whole.
   * A damaged server is still listed, so it can be seen and removed, and is never connected.
   */
  readonly damage?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewMcpServer = Omit<McpServerRecord, 'createdAt' | 'updatedAt'>;
export type McpServerUpdate = Partial<Pick<McpServerRecord, 'url' | 'transport' | 'sealedHeaders' | 'enabledTools'>>;

export interface McpServerStore {
  /** Throws `DuplicateRecordError` when a server with this name exists. */
  create(server: NewMcpServer): Promise<McpServerRecord>;
  get(name: string): Promise<McpServerRecord | undefined>;
  /** Oldest first, so servers reconnect in the order they were added; a damaged row is listed too (see `damage`). */
  list(): Promise<McpServerRecord[]>;
  /** Changes only the given fields; throws `NotFoundError` for an unknown name. */
  update(name: string, update: McpServerUpdate): Promise<McpServerRecord>;
  /** Returns whether it existed. */
  delete(name: string): Promise<boolean>;
}
