import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ConfigurationError, NotFoundError, describeError, type McpServerRecord, type McpServerStore, type McpTransportKind } from '../../core/index.js';
import type { SecretRedactor } from '../../security/redaction/index.js';
import type { ToolRegistry } from '../registry.js';
import type { McpEndpoint, StdioPermission, createClientTransport } from './client-transport.js';
import type { connectionFailure } from './connection-failure.js';
import { displayUrl } from './display-url.js';
import type { McpClientConnection } from './mcp-client-connection.js';
import { McpConnectionError } from './mcp-errors.js';
import type { McpConnectionState, McpRegisteredTool, McpServerStatus } from './mcp-server-status.js';
import { MCP_SERVER_NAME_MAX_LENGTH, MCP_SERVER_NAME_PATTERN, mcpToolName } from './mcp-tool-name.js';
import { DEFAULT_RECONNECT_BACKOFF, reconnectDelayMs, type ReconnectBackoff } from './reconnect-backoff.js';
import { createRemoteTool } from './remote-tool.js';

/**
 * The parts of the client that need the MCP SDK, which takes a few hundred milliseconds to load: they are
 * loaded when the first server connects, so commands and runs without MCP servers never pay for them.
 */
function loadClient() {
  clientParts ??= Promise.all([import('./client-transport.js'), import('./connection-failure.js'), import('./mcp-client-connection.js')]).then(
    ([transport, failure, connection]) => ({
      createClientTransport: transport.createClientTransport,
      connectionFailure: failure.connectionFailure,
      McpClientConnection: connection.McpClientConnection,
    }),
  );
  return clientParts;
}
let clientParts:
  | Promise<{
      createClientTransport: typeof createClientTransport;
      connectionFailure: typeof connectionFailure;
      McpClientConnection: typeof McpClientConnection;
    }>
  | undefined;

/** Seals header values for the store; see `SecretBox` in the store module. */
export interface HeaderSealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export interface McpConnectionManagerOptions {
  readonly store: McpServerStore;
  readonly registry: ToolRegistry;
  readonly secrets: HeaderSealer;
  /** Learns every header value, given or opened from the store, so errors and events never show one. */
  readonly redactor: Pick<SecretRedactor, 'add'>;
  /** The guarded fetch for HTTP transports (see `createGuardedStreamFetch`). */
  readonly fetch: FetchLike;
  /** `refuse` for servers; `remembered` for the local CLI (servers added with `--allow-stdio`); `allow` with FORGE_MCP_ALLOW_STDIO=1. */
  readonly stdio: StdioPermission;
  /** Bound on the handshake and on every list and call; default 30 s. */
  readonly timeoutMs?: number;
  readonly backoff?: ReconnectBackoff;
  /** How Forge introduces itself in `initialize`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
}

/** A server to add. Header values are sealed before they are stored. */
export interface McpServerDefinition {
  readonly name: string;
  readonly url: string;
  readonly transport: McpTransportKind;
  readonly headers?: Readonly<Record<string, string>>;
  /** Remote tool names to register; omitted or null for every tool. */
  readonly enabledTools?: readonly string[] | null;
  /** Believe the server's `readOnlyHint` annotations (default false: every tool may write). */
  readonly trustAnnotations?: boolean;
  /** A stdio server whose program may start, now and on later commands of the local CLI (`--allow-stdio`). */
  readonly allowStdio?: boolean;
}

interface ServerEntry {
  record: McpServerRecord;
  endpoint: McpEndpoint;
  state: McpConnectionState;
  lastError: McpConnectionError | null;
  failedAttempts: number;
  nextAttemptAt: number | null;
  connection: McpClientConnection | undefined;
  /** Registry name → the remote tool registered under it. */
  registered: Map<string, McpTool>;
  skipped: { name: string; reason: string }[];
  timer: NodeJS.Timeout | undefined;
  /** The attempt in flight, so that refresh and the retry timer never race two connections. */
  attempt: Promise<void> | undefined;
  /** Set when the server was removed or the manager closed: late results are discarded. */
  retired: boolean;
}

const defaultTimeoutMs = 30_000;

/**
 * Owns every remote MCP server: keeps their records in the store, their sessions open, and their tools
 * in the catalog (the one `ToolRegistry`) while (and only while) they are connected. Started, it
 * reconnects every stored server; a server that is down shows `reconnecting` and is retried with
 * backoff in the background until it answers. Tool list changes (`notifications/tools/list_changed`,
 * or `refresh`) add and remove catalog tools to match the server. All of this changes the catalog for
 * runs started afterwards: a running run keeps the tools it took, and its calls go to the server's
 * current session. A call that finds the session broken marks the server `reconnecting`, so the next
 * attempt starts a new session.
 */
export class McpConnectionManager {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly timeoutMs: number;
  private readonly backoff: ReconnectBackoff;

  constructor(private readonly options: McpConnectionManagerOptions) {
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.backoff = options.backoff ?? DEFAULT_RECONNECT_BACKOFF;
  }

  /**
   * Loads every stored server and starts connecting. Resolves once each first attempt has finished
   * or `waitMs` has passed, whichever comes first: a slow or dead server never holds up startup, it
   * goes on in the background.
   */
  async start(options: { waitMs: number }): Promise<void> {
    const records = await this.options.store.list();
    const attempts = records.filter((record) => !this.entries.has(record.name)).map((record) => this.attempt(this.createEntry(record)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(attempts), new Promise((resolve) => (timer = setTimeout(resolve, options.waitMs)))]);
    clearTimeout(timer);
  }

  /**
   * Adds a server: connects, lists its tools, and only when that worked stores it (headers sealed)
   * and registers its tools. Throws `ConfigurationError` for a bad or taken name and
   * `McpConnectionError` when the server cannot be reached; nothing is stored then.
   */
  async add(definition: McpServerDefinition): Promise<McpServerStatus> {
    validateServerName(definition.name);
    if (this.entries.has(definition.name) || (await this.options.store.get(definition.name)) !== undefined) {
      throw new ConfigurationError('name', `an MCP server named "${definition.name}" is already configured.`, `Pick another name, or remove it first with \`forge mcp remove ${definition.name}\`.`);
    }
    const headers = definition.headers ?? {};
    for (const value of Object.values(headers)) this.options.redactor.add(value);
    const draft: McpServerRecord = {
      name: definition.name,
      transport: definition.transport,
      url: definition.url,
      sealedHeaders: Object.keys(headers).length === 0 ? null : this.options.secrets.seal(JSON.stringify(headers)),
      enabledTools: definition.enabledTools ?? null,
      trustAnnotations: definition.trustAnnotations === true,
      allowStdio: definition.allowStdio === true,
      createdAt: '',
      updatedAt: '',
    };
    const entry = this.createEntry(draft);
    await this.attempt(entry);
    if (entry.state !== 'connected') {
      await this.retire(entry);
      throw entry.lastError ?? new McpConnectionError({ serverName: definition.name, message: 'the connection did not come up', permanent: false });
    }
    try {
      entry.record = await this.options.store.create(draft);
    } catch (error) {
      await this.retire(entry);
      throw error;
    }
    return this.statusOf(entry);
  }

  /** Disconnects a server, removes its tools from the registry and forgets it. Returns whether it existed. */
  async remove(name: string): Promise<boolean> {
    const entry = this.entries.get(name);
    if (entry !== undefined) await this.retire(entry);
    return (await this.options.store.delete(name)) || entry !== undefined;
  }

  /**
   * Brings a server up to date now: a connected one lists its tools again (new ones are registered,
   * gone ones unregistered); any other one gets a connection attempt at once, backoff or not.
   */
  async refresh(name: string): Promise<McpServerStatus> {
    const entry = this.requireEntry(name);
    if (entry.attempt !== undefined) await entry.attempt;
    if (entry.connection !== undefined) {
      await this.syncTools(entry, entry.connection);
    } else {
      await this.attempt(entry);
    }
    return this.statusOf(entry);
  }

  status(name: string): McpServerStatus {
    return this.statusOf(this.requireEntry(name));
  }

  /** Every server, in the order they were added. */
  statuses(): McpServerStatus[] {
    return [...this.entries.values()].map((entry) => this.statusOf(entry));
  }

  /** The server's tools that are in the registry now. */
  tools(name: string): McpRegisteredTool[] {
    const entry = this.requireEntry(name);
    return [...entry.registered].map(([registryName, remote]) => ({
      name: registryName,
      remoteName: remote.name,
      description: remote.description ?? '',
      inputSchema: remote.inputSchema,
    }));
  }

  /** Waits until a server reaches `state` (or fails, when waiting for something else); for callers that must know. */
  async waitFor(name: string, state: McpConnectionState, options: { timeoutMs: number }): Promise<McpServerStatus> {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const entry = this.requireEntry(name);
      if (entry.state === state) return this.statusOf(entry);
      if (Date.now() >= deadline) {
        throw new McpConnectionError({ serverName: name, message: `still ${entry.state} after ${options.timeoutMs} ms, not ${state}`, permanent: false });
      }
      await (entry.attempt ?? new Promise((resolve) => setTimeout(resolve, 20)));
    }
  }

  /** Ends every session and removes every remote tool from the registry; the stored servers stay. */
  async close(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => this.retire(entry)));
  }

  private createEntry(record: McpServerRecord): ServerEntry {
    const entry: ServerEntry = {
      record,
      endpoint: { serverName: record.name, transport: record.transport, url: record.url, headers: {} },
      state: 'connecting',
      lastError: null,
      failedAttempts: 0,
      nextAttemptAt: null,
      connection: undefined,
      registered: new Map(),
      skipped: [],
      timer: undefined,
      attempt: undefined,
      retired: false,
    };
    this.entries.set(record.name, entry);
    return entry;
  }

  /** One connection attempt; concurrent requests for one share it. Never throws: the outcome is the entry's state. */
  private attempt(entry: ServerEntry): Promise<void> {
    entry.attempt ??= this.connect(entry).finally(() => {
      entry.attempt = undefined;
    });
    return entry.attempt;
  }

  private async connect(entry: ServerEntry): Promise<void> {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.nextAttemptAt = null;
    let connection: McpClientConnection | undefined;
    let client: Awaited<ReturnType<typeof loadClient>>;
    try {
      client = await loadClient();
    } catch (error) {
      clientParts = undefined;
      if (!entry.retired) this.fail(entry, new McpConnectionError({ serverName: entry.record.name, message: `the MCP client could not be loaded: ${describeError(error).message}`, permanent: false }));
      return;
    }
    try {
      if (entry.record.damage !== undefined) {
        throw new McpConnectionError({
          serverName: entry.record.name,
          message: `its stored record cannot be read: ${entry.record.damage}; it is not connected.`,
          permanent: true,
          hint: `Remove it with \`forge mcp remove ${entry.record.name}\` and add it again with \`forge mcp add\`.`,
        });
      }
      const endpoint: McpEndpoint = { ...entry.endpoint, headers: this.headersOf(entry.record) };
      const transport = client.createClientTransport(endpoint, { fetch: this.options.fetch, stdio: this.stdioFor(entry.record) });
      connection = await client.McpClientConnection.open({
        serverName: entry.record.name,
        transport,
        timeoutMs: this.timeoutMs,
        clientName: this.options.clientInfo.name,
        clientVersion: this.options.clientInfo.version,
        listener: {
          onToolsChanged: () => {
            if (entry.connection === connection && connection !== undefined) void this.syncTools(entry, connection);
          },
          onLost: () => {
            if (entry.connection === connection && connection !== undefined) this.lose(entry, connection, new McpConnectionError({ serverName: entry.record.name, message: 'the session closed', permanent: false }));
          },
        },
      });
      if (entry.retired) {
        await connection.close();
        return;
      }
      entry.connection = connection;
      await this.syncTools(entry, connection);
      if (entry.connection !== connection) return;
      entry.state = 'connected';
      entry.lastError = null;
      entry.failedAttempts = 0;
    } catch (error) {
      if (connection !== undefined && entry.connection === connection) entry.connection = undefined;
      await connection?.close();
      if (!entry.retired) this.fail(entry, client.connectionFailure(entry.record.name, error));
    }
  }

  /** Lists the server's tools and makes the registry match: new ones in, gone or changed ones replaced. */
  private async syncTools(entry: ServerEntry, connection: McpClientConnection): Promise<void> {
    let remoteTools: McpTool[];
    try {
      remoteTools = await connection.listTools();
    } catch (error) {
      this.lose(entry, connection, (await loadClient()).connectionFailure(entry.record.name, error));
      return;
    }
    if (entry.retired || entry.connection !== connection) return;
    const enabled = entry.record.enabledTools === null ? undefined : new Set(entry.record.enabledTools);
    const wanted = new Map<string, McpTool>();
    const skipped: { name: string; reason: string }[] = [];
    for (const remote of remoteTools) {
      if (enabled !== undefined && !enabled.has(remote.name)) {
        skipped.push({ name: remote.name, reason: 'not in the enabled tools' });
        continue;
      }
      const registryName = mcpToolName(entry.record.name, remote.name);
      const twin = wanted.get(registryName);
      if (twin !== undefined) {
        skipped.push({ name: remote.name, reason: `its registry name ${registryName} is taken by "${twin.name}"` });
        continue;
      }
      wanted.set(registryName, remote);
    }
    for (const [registryName, remote] of entry.registered) {
      if (sameTool(wanted.get(registryName), remote)) continue;
      this.options.registry.unregister(registryName);
      entry.registered.delete(registryName);
    }
    for (const [registryName, remote] of wanted) {
      if (entry.registered.has(registryName)) continue;
      try {
        this.options.registry.register(createRemoteTool(entry.record.name, remote, (name, args, signal) => this.call(entry, name, args, signal), { trustAnnotations: entry.record.trustAnnotations }));
        entry.registered.set(registryName, remote);
      } catch (error) {
        skipped.push({ name: remote.name, reason: describeError(error).message });
      }
    }
    entry.skipped = skipped;
  }

  private async call(entry: ServerEntry, remoteName: string, args: Record<string, unknown>, signal: AbortSignal) {
    const connection = entry.connection;
    if (connection === undefined) {
      throw new McpConnectionError({ serverName: entry.record.name, message: `not connected (${entry.state})`, permanent: false, hint: 'See `forge mcp list` for the server\'s status and last error.' });
    }
    try {
      return await connection.callTool(remoteName, args, signal);
    } catch (error) {
      if (error instanceof McpConnectionError && !signal.aborted) this.lose(entry, connection, error);
      throw error;
    }
  }

  /** The session broke: its tools leave the registry and a new session is attempted with backoff. */
  private lose(entry: ServerEntry, connection: McpClientConnection, error: McpConnectionError): void {
    if (entry.retired || entry.connection !== connection) return;
    entry.connection = undefined;
    void connection.close();
    this.fail(entry, error);
  }

  private fail(entry: ServerEntry, error: McpConnectionError): void {
    this.unregisterAll(entry);
    entry.lastError = error;
    entry.failedAttempts += 1;
    if (error.permanent) {
      entry.state = 'failed';
      return;
    }
    entry.state = 'reconnecting';
    const delay = reconnectDelayMs(entry.failedAttempts, this.backoff);
    entry.nextAttemptAt = Date.now() + delay;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.attempt(entry), delay);
    // A background retry must not keep a finished CLI command alive.
    entry.timer.unref();
  }

  private async retire(entry: ServerEntry): Promise<void> {
    entry.retired = true;
    clearTimeout(entry.timer);
    this.unregisterAll(entry);
    this.entries.delete(entry.record.name);
    const connection = entry.connection;
    entry.connection = undefined;
    await connection?.close();
  }

  private unregisterAll(entry: ServerEntry): void {
    for (const registryName of entry.registered.keys()) this.options.registry.unregister(registryName);
    entry.registered.clear();
  }

  private stdioFor(record: McpServerRecord): 'allow' | 'refuse' {
    const { stdio } = this.options;
    return stdio === 'allow' || (stdio === 'remembered' && record.allowStdio === true) ? 'allow' : 'refuse';
  }

  private headersOf(record: McpServerRecord): Record<string, string> {
    if (record.sealedHeaders === null) return {};
    const headers = JSON.parse(this.options.secrets.open(record.sealedHeaders)) as Record<string, string>;
    for (const value of Object.values(headers)) this.options.redactor.add(value);
    return headers;
  }

  /** Header names for display; none when the headers cannot be opened (the entry's last error says why). */
  private headerNamesOf(record: McpServerRecord): string[] {
    try {
      return Object.keys(this.headersOf(record));
    } catch {
      return [];
    }
  }

  private requireEntry(name: string): ServerEntry {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new NotFoundError('MCP server', name, 'List the configured servers with `forge mcp list`, or add one with `forge mcp add <name> <url>`.', 'name');
    return entry;
  }

  private statusOf(entry: ServerEntry): McpServerStatus {
    return {
      name: entry.record.name,
      transport: entry.record.transport,
      url: displayUrl(entry.record.url),
      headers: this.headerNamesOf(entry.record),
      state: entry.state,
      lastError: entry.lastError === null ? null : entry.lastError.toJSON(),
      failedAttempts: entry.failedAttempts,
      nextAttemptAt: entry.nextAttemptAt === null ? null : new Date(entry.nextAttemptAt).toISOString(),
      tools: [...entry.registered.keys()],
      skippedTools: entry.skipped,
      enabledTools: entry.record.enabledTools,
      trustAnnotations: entry.record.trustAnnotations,
    };
  }
}

function validateServerName(name: string): void {
  if (name.length > MCP_SERVER_NAME_MAX_LENGTH || !MCP_SERVER_NAME_PATTERN.test(name)) {
    throw new ConfigurationError(
      'name',
      `"${name}" is not a valid MCP server name.`,
      `Use lower-case letters, digits and single hyphens, at most ${MCP_SERVER_NAME_MAX_LENGTH} characters (e.g. "docs" or "github-issues"); it becomes the {server} in mcp__{server}__{tool}.`,
    );
  }
}

function sameTool(left: McpTool | undefined, right: McpTool): boolean {
  return left !== undefined && JSON.stringify(left) === JSON.stringify(right);
}
