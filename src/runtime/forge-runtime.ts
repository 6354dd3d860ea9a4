import { hostname } from 'node:os';
import { DEFAULT_MEMORY_BOUNDS, DEFAULT_MAX_ITERATIONS, boundHistory, defaultPolicy, refuseApprovals, runAgent, type AgentRunOptions, type AgentRunResult } from '../agent/index.js';
import { NotFoundError, type AnyEventBody, type ApprovalGate, type GuardedFetch, type Policy, type Store } from '../core/index.js';
import { InProcessEventBus } from '../events/index.js';
import { createUtilityModel, defaultModelSlug, resolveModel, type ResolvedModel } from '../llm/index.js';
import { SecretRedactor, secretsFromEnvironment } from '../redaction/index.js';
import { RunService } from '../runs/index.js';
import { installationSecretBox, openStore } from '../store/index.js';
import { runConverge, type ConvergeRunResult } from '../synthesis/converge/index.js';
import { Toolbox, registerPromotedTools, toolboxFolder, type ToolboxManifestMigration } from '../synthesis/toolbox/index.js';
import { createBuiltinTools, searchConfigFromEnv } from '../tools/builtins/index.js';
import { ToolRegistry } from '../tools/index.js';
import { McpConnectionManager, type ReconnectBackoff, type StdioPermission } from '../tools/mcp/index.js';
import { createGuardedFetch, createGuardedStreamFetch, parseAllowHosts, parseResolveEntries } from '../tools/security/index.js';
import { FORGE_VERSION } from '../version.js';
import { loadConfig, type Environment, type ForgeConfig } from './config.js';
import { toLoopMessage, toStoredMessage } from './conversation-messages.js';

/** Everything a command needs, wired with the embedded defaults. */
export interface ForgeRuntime {
  readonly config: ForgeConfig;
  readonly store: Store;
  /** Every event on it has passed `redactor` before any listener (run log, store, terminal, API) sees it. */
  readonly bus: InProcessEventBus;
  /** The secrets of this runtime (its environment's keys, opened MCP header values), redacted from events and stored messages. */
  readonly redactor: SecretRedactor;
  /** The catalog of every tool; each run takes an immutable snapshot of it when it starts. */
  readonly registry: ToolRegistry;
  readonly fetch: GuardedFetch;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  /** Remote MCP servers: reconnected from the store on open, their tools in the catalog while connected. */
  readonly mcp: McpConnectionManager;
  /** Synthesized and hand-added tools, held by the store (their files in `FORGE_HOME/toolbox`); its promoted tools are in the catalog. */
  readonly toolbox: Toolbox;
  /** What opening did that a person should hear of (a toolbox manifest of an older Forge migrated into the store); the CLI prints them. */
  readonly notices: readonly string[];
  /** Starts every run (agent, converge, skill replay, direct tool call) and owns its lifecycle. */
  readonly runs: RunService;
  /** Ends MCP sessions (their tools leave the catalog), then closes the store. */
  close(): Promise<void>;
}

/** Choices a composition root makes when it opens the runtime. */
export interface RuntimeOptions {
  /**
   * The redactor to use and add this runtime's secrets to, so a composition root that prints (the CLI)
   * redacts what the runtime learns; a new one when absent.
   */
  readonly redactor?: SecretRedactor;
  /** A store opened by the caller (the runtime closes it with itself); by default FORGE_DATABASE_URL's. */
  readonly store?: Store;
  readonly mcp?: {
    /** Stdio MCP servers start local programs: `allow` only for the local CLI's explicit opt-in; servers pass `refuse`. */
    readonly stdio?: StdioPermission;
    /** How long `openRuntime` waits for stored servers to connect before going on without them; default 3 s. */
    readonly startupWaitMs?: number;
    readonly backoff?: ReconnectBackoff;
    /** Bound on each MCP handshake, list and call; default 30 s. */
    readonly timeoutMs?: number;
  };
}

/**
 * Opens the store, builds the guard and the registry of built-in tools, seeds the redactor with the
 * environment's secrets (see `secretsFromEnvironment`), and reconnects the stored MCP servers (waiting
 * at most `startupWaitMs` for them; a server that is down keeps reconnecting in the background and
 * shows `reconnecting` meanwhile).
 */
export async function openRuntime(env: Environment = process.env, cwd: string = process.cwd(), options: RuntimeOptions = {}): Promise<ForgeRuntime> {
  const config = loadConfig(env, cwd);
  // One reading of FORGE_ALLOW_HOSTS and FORGE_RESOLVE for every way out: tools and MCP transports alike.
  const destinations = { allowHosts: parseAllowHosts(config.allowHosts), resolve: parseResolveEntries(config.resolve) };
  const fetch = createGuardedFetch(destinations);
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools(searchConfigFromEnv(env))) registry.register(tool);
  const redactor = options.redactor ?? new SecretRedactor();
  for (const secret of secretsFromEnvironment(env)) redactor.add(secret);
  const store = options.store ?? (await openStore({ url: config.databaseUrl }));
  const mcp = new McpConnectionManager({
    store: store.mcpServers,
    registry,
    redactor,
    secrets: installationSecretBox({ secretKey: config.secretKey, home: config.home }),
    fetch: createGuardedStreamFetch(destinations),
    // The local opt-in for stdio servers is explicit: --allow-stdio, or FORGE_MCP_ALLOW_STDIO=1.
    stdio: options.mcp?.stdio ?? (config.mcpAllowStdio ? 'allow' : 'refuse'),
    clientInfo: { name: 'forge', version: FORGE_VERSION },
    ...(options.mcp?.backoff === undefined ? {} : { backoff: options.mcp.backoff }),
    ...(options.mcp?.timeoutMs === undefined ? {} : { timeoutMs: options.mcp.timeoutMs }),
  });
  const close = async () => {
    await mcp.close();
    await store.close();
  };
  try {
    // The store is the toolbox's truth. Opened before MCP so a broken manifest left to migrate fails at once
    // instead of after waiting for servers.
    const toolbox = await Toolbox.open(toolboxFolder(config.home), store.toolbox);
    const notices = toolbox.migration === null ? [] : [describeManifestMigration(toolbox.migration)];
    const bus = new InProcessEventBus({ redactor });
    const runs = new RunService({ store, bus, home: config.home, owner: { pid: process.pid, host: hostname() } });
    // A run a dead process left running is ended now, loudly, never left running for ever.
    await runs.endInterruptedRuns();
    await mcp.start({ waitMs: options.mcp?.startupWaitMs ?? 3_000 });
    await registerPromotedTools(registry, toolbox);
    return { config, store, bus, redactor, registry, fetch, policy: defaultPolicy, approvals: refuseApprovals, mcp, toolbox, notices, runs, close };
  } catch (error) {
    // Nothing opened here may outlive a failed start: connections and the database are closed again.
    await close();
    throw error;
  }
}

export interface RunTaskOptions {
  readonly task: string;
  /** A slug, or a model built in code; default FORGE_MODEL or the first vendor with a key. */
  readonly model?: string | ResolvedModel;
  readonly maxIterations?: number;
  readonly system?: string;
  /**
   * The tools the run may use, by exact name (`forge run --tools`); default every tool in the catalog
   * when the run starts. A name no tool has is an `UnknownToolsError` listing what exists, thrown before
   * a run or conversation is created.
   */
  readonly tools?: readonly string[];
  /** Continue this persisted conversation; a new one is created when absent. */
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
  readonly maxRetries?: number;
  /** Events that open the run's log before the loop starts (e.g. why no stored skill replaced the agent). */
  readonly preludeEvents?: readonly AnyEventBody[];
  /** Run the convergence-gated loop (`forge run --converge`): one tool per turn, request_tool, plan. */
  readonly converge?: boolean;
  /** `fresh` wipes the toolbox before the run; `keep` (the default) reuses it. */
  readonly toolbox?: 'keep' | 'fresh';
}

export interface RunTaskResult extends AgentRunResult {
  readonly conversation_id: string;
  readonly log_file: string;
  /** Convergence mode only: what a reader must not miss (a cap halt, a synthesis that used up its revisions). */
  readonly warnings?: readonly string[];
}

/**
 * Runs one task end to end: resolves the model (a clear error when none is configured), records the
 * run in the store and the run log (with the runtime's secrets redacted from both), continues the
 * conversation with bounded history, and returns the documented JSON shape. The run's tools are the
 * catalog's (or those `tools` names) as they are when its loop starts, after a `fresh` wipe; nothing
 * the catalog gains or loses later reaches it.
 */
export async function runTask(runtime: ForgeRuntime, options: RunTaskOptions): Promise<RunTaskResult> {
  const { store, config } = runtime;
  const model =
    typeof options.model === 'object'
      ? options.model
      : resolveModel(defaultModelSlug(config.env, options.model), config.env, options.model === undefined ? 'FORGE_MODEL' : '--model');
  // A tool list naming what does not exist is a usage error, not a failed run; the loop takes the set itself when it starts.
  if (options.tools !== undefined) runtime.registry.snapshot(options.tools);
  const conversation =
    options.conversationId === undefined
      ? await store.conversations.create({ title: runtime.redactor.redactText(options.task).slice(0, 80) })
      : await requireConversation(store, options.conversationId);
  const bounds = {
    maxMessages: config.historyMessages ?? DEFAULT_MEMORY_BOUNDS.maxMessages,
    maxTokens: config.historyTokens ?? DEFAULT_MEMORY_BOUNDS.maxTokens,
  };
  const history = boundHistory((await store.conversations.listMessages(conversation.id, { lastN: bounds.maxMessages })).map(toLoopMessage), bounds);

  const handle = runtime.runs.start({
    kind: options.converge === true ? 'converge' : 'agent',
    task: runtime.redactor.redactText(options.task),
    model: model.slug,
    conversationId: conversation.id,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    execute: async ({ runId, emitter, meter, signal }): Promise<AgentRunResult | ConvergeRunResult> => {
      for (const body of options.preludeEvents ?? []) emitter.emit(body);
      if (options.toolbox === 'fresh') await wipeToolbox(runtime);
      const onMessages: NonNullable<AgentRunOptions['onMessages']> = async (messages, details) => {
        await store.conversations.appendMessages(
          conversation.id,
          messages.map((message) => runtime.redactor.redactValue(toStoredMessage(message, runId, details))),
        );
      };
      const common = {
        task: options.task,
        model,
        registry: runtime.registry,
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        emitter,
        meter,
        policy: runtime.policy,
        approvals: runtime.approvals,
        toolContext: { fetch: runtime.fetch, utilityModel: createUtilityModel(model, meter, emitter.emit) },
        ...(options.system === undefined ? {} : { system: options.system }),
        signal,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        onMessages,
      };
      if (options.converge === true) {
        const testSlug = config.env['FORGE_TEST_MODEL']?.trim();
        return runConverge({
          ...common,
          ...(testSlug ? { testModel: resolveModel(testSlug, config.env, 'FORGE_TEST_MODEL') } : {}),
          toolbox: runtime.toolbox,
          ...(options.maxIterations === undefined ? {} : { maxTurns: options.maxIterations }),
        });
      }
      return runAgent({ ...common, history, conversationId: conversation.id, maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS });
    },
  });
  return { ...(await handle.result), conversation_id: conversation.id, log_file: handle.logFile };
}

function describeManifestMigration(migration: ToolboxManifestMigration): string {
  const what = migration.imported > 0 ? `moved ${migration.imported} tool${migration.imported === 1 ? '' : 's'} from ${migration.file} into the store` : `the store already holds the toolbox, so ${migration.file} was not read`;
  return `toolbox: ${what}; the store is now the toolbox's only truth, and the file was kept as ${migration.movedTo} (\`forge tools export\` writes a manifest when you want one).`;
}

/**
 * `--fresh`: the toolbox's tools leave the catalog (runs already going keep theirs), then the store's
 * toolbox and the tools' files are wiped.
 */
export async function wipeToolbox(runtime: ForgeRuntime): Promise<void> {
  for (const entry of await runtime.toolbox.promoted()) runtime.registry.unregister(entry.name);
  await runtime.toolbox.wipe();
}

async function requireConversation(store: Store, id: string) {
  const conversation = await store.conversations.get(id);
  if (conversation === undefined) {
    throw new NotFoundError('conversation', id, 'Use the conversation_id printed by an earlier `forge run --json`, or omit --conversation to start a new one.');
  }
  return conversation;
}
