import { AccountService, ApiKeyService, ProviderKeyService, QuotaService, loadSessionKey, quotaCheck } from '../accounts/index.js';
import { MarketplaceService } from '../marketplace/index.js';
import { RunFrontDoor } from '../runs/run-front-door.js';
import { hostname } from 'node:os';
import { refuseApprovals } from '../engine/index.js';
import { PolicyEngine, PolicyService } from '../policy/index.js';
import type { ApprovalGate, Credentials, EventBus, EventFanOut, GuardedFetch, JobQueue, ModelCallCheck, Policy, Store } from '../core/index.js';
import { InProcessEventBus } from '../events/index.js';
import { EnvironmentCredentials, priceOf } from '../llm/index.js';
import { InProcessJobQueue } from '../adapters/queue/index.js';
import { SecretRedactor, redactedCredentials, secretsFromEnvironment } from '../security/redaction/index.js';
import { ApprovalSealer } from '../runs/index.js';
import { StatsService } from '../stats/index.js';
import { installationSecretBox, openStore } from '../adapters/store/index.js';
import { Toolbox, registerPromotedTools, toolboxFolder, type ToolboxEntryError, type ToolboxManifestMigration } from '../synthesis/toolbox/index.js';
import { createBuiltinTools, searchConfigFromEnv } from '../tools/builtins/index.js';
import { ToolRegistry } from '../tools/index.js';
import { closeOptionalTools, createOptionalTools, releaseRunOfTools } from '../tools/optional-tools.js';
import { McpConnectionManager, type ReconnectBackoff, type StdioPermission } from '../tools/mcp/index.js';
import { createGuardedFetch, createGuardedStreamFetch, parseAllowHosts, parseResolveEntries } from '../security/index.js';
import { FORGE_VERSION } from '../version.js';
import { loadConfig, type ForgeConfig } from '../config/forge-config.js';
import { expireWaitingRuns } from '../policy/approvals/approval-answers.js';
import { SkillService } from '../skills/skill-service.js';
import { ToolService } from '../synthesis/toolbox/tool-service.js';

/** Everything a command, a server route or a library caller needs: the parts it was made of, and the services over them. */
export interface ForgeRuntime {
  readonly config: ForgeConfig;
  readonly store: Store;
  /** Every event on it has passed `redactor` before any listener (run log, store, terminal, API) sees it. */
  readonly bus: EventBus;
  /** The secrets of this runtime (its environment's keys, keys its credentials handed out, opened MCP header values), redacted from events and stored messages. */
  readonly redactor: SecretRedactor;
  /** The catalog of every tool; each run takes an immutable snapshot of it when it starts. */
  readonly registry: ToolRegistry;
  readonly fetch: GuardedFetch;
  /** Decides every dispatched call: the policy engine over the stored, versioned policies (or the part given). */
  readonly policy: Policy;
  /** Policies as data: show, set, test, versions, rollback (`forge policy`, the API). */
  readonly policies: PolicyService;
  readonly approvals: ApprovalGate;
  /** Signs approval answers and grants, and checks them before a run acts on one. */
  readonly approvalSealer: ApprovalSealer;
  /** Where model keys come from; every key read through it is added to `redactor` first. */
  readonly credentials: Credentials;
  /** Work for whichever worker is free; in-process by default, BullMQ in the scaled mode. */
  readonly queue: JobQueue;
  /**
   * `embedded`: this process runs every run it starts. `scaled` (FORGE_REDIS_URL, or a fan-out given):
   * a server queues runs for `forge worker` processes, and follows their events through `fanOut`.
   */
  readonly mode: 'embedded' | 'scaled';
  /** The scaled mode's event fan-out between processes; none when embedded. */
  readonly fanOut: EventFanOut | undefined;
  /** Remote MCP servers: reconnected from the store on open, their tools in the catalog while connected. */
  readonly mcp: McpConnectionManager;
  /** Synthesized and hand-added tools, held by the store (their files in `FORGE_HOME/toolbox`); its promoted tools are in the catalog. */
  readonly toolbox: Toolbox;
  /** What opening did that a person should hear of (a toolbox manifest of an older Forge migrated into the store); the CLI prints them. */
  readonly notices: readonly string[];
  /**
   * The front door of every run (`submit`, `execute`: a run request in, checked once) and every run's
   * lifecycle (agent, converge, skill replay, direct tool call): record, events, cancel, end.
   */
  readonly runs: RunFrontDoor;
  /** The catalog and the toolbox: list, describe, add through the gate, retest, remove. */
  readonly tools: ToolService;
  /** Stored skills: save from a run, import, edit, roll back, list, load, test. */
  readonly skills: SkillService;
  /** Figures of stored runs, summed by the store. */
  readonly stats: StatsService;
  /** People's accounts and sign-ins (`forge users`, `forge serve` with accounts). */
  readonly accounts: AccountService;
  /** Accounts' service keys (`forge api-keys`, `X-API-Key`). */
  readonly apiKeys: ApiKeyService;
  /** Per-account and per-key quotas (`forge accounts quota`, `/accounts/{id}/quota`). */
  readonly quotas: QuotaService;
  /** Accounts' model provider keys, sealed at rest; their runs' credentials. */
  readonly providerKeys: ProviderKeyService;
  /** Skills packaged as products for customers, and the ledger of their runs. */
  readonly marketplace: MarketplaceService;
  /** Closes the queue (its active jobs settle first), ends MCP sessions (their tools leave the catalog), then closes the store. */
  close(): Promise<void>;
}

/** How the runtime's MCP client behaves. */
export interface RuntimeMcpOptions {
  /** Stdio MCP servers start local programs. Default `remembered` (only servers added with `--allow-stdio`), `allow` with FORGE_MCP_ALLOW_STDIO=1; servers pass `refuse`. */
  readonly stdio?: StdioPermission;
  /** How long opening the runtime waits for stored servers to connect before going on without them; default 3 s. */
  readonly startupWaitMs?: number;
  readonly backoff?: ReconnectBackoff;
  /** Bound on each MCP handshake, list and call; default 30 s. */
  readonly timeoutMs?: number;
}

/**
 * The parts a composition root may choose; each one left out gets its default here, and only here. A
 * part given is owned by the runtime from then on: `close` closes the store and the queue.
 */
export interface RuntimeParts {
  /** Default: `loadConfig(process.env, process.cwd())`, what the CLI would use in this folder. */
  readonly config?: ForgeConfig;
  /** Default: the store at `config.databaseUrl` (FORGE_DATABASE_URL). */
  readonly store?: Store;
  /**
   * Default: an in-process bus that redacts every event with `redactor`. A bus given must do the same
   * (pass the same `redactor` to it), since the run log, the store and every listener trust it to.
   */
  readonly bus?: EventBus;
  /** Default: the policy engine over the store's policies (FORGE_REQUIRE_APPROVAL adds its rules). */
  readonly policy?: Policy;
  /** Default: `refuseApprovals` (nobody can answer, so a call that needs approval is refused). */
  readonly approvals?: ApprovalGate;
  /** Default: the vendors' environment variables in `config.env` (`OPENAI_API_KEY`, …). */
  readonly credentials?: Credentials;
  /** Default: an `InProcessJobQueue`; in the scaled mode a BullMQ queue on FORGE_REDIS_URL. */
  readonly queue?: JobQueue;
  /** Given, the runtime runs scaled: runs are queued for workers and their events followed through it. Default: Redis pub/sub on FORGE_REDIS_URL, or none. */
  readonly fanOut?: EventFanOut;
  /**
   * The redactor to use and add this runtime's secrets to, so a composition root that prints (the CLI)
   * redacts what the runtime learns; a new one when absent.
   */
  readonly redactor?: SecretRedactor;
  readonly mcp?: RuntimeMcpOptions;
  /**
   * Checks every model call of every run passes before it is made, after the run's own limits and the
   * account and key quotas (always on): the one pre-call seam (see `ModelCallCheck`; budgets plug in
   * here). Default: none besides the quotas.
   */
  readonly modelCallChecks?: readonly ModelCallCheck[];
  /**
   * This runtime serves other people (`forge serve`, `forge worker`), not one person at a terminal:
   * where no isolation boundary works, the shell tool is refused unless FORGE_SHELL_ISOLATION=off.
   */
  readonly server?: boolean;
}

/**
 * Wires a runtime from its parts, with the embedded defaults for those not given: builds the SSRF
 * guard and the catalog of built-in tools, seeds the redactor with the environment's secrets (see
 * `secretsFromEnvironment`), opens the toolbox, ends the runs a dead process left running, and
 * reconnects the stored MCP servers (waiting at most `startupWaitMs` for them; a server that is down
 * keeps reconnecting in the background and shows `reconnecting` meanwhile). If opening fails once the
 * store is open, the queue, MCP connections and the store (given or not) are closed before the error is thrown.
 */
export async function createRuntime(parts: RuntimeParts = {}): Promise<ForgeRuntime> {
  const config = parts.config ?? loadConfig(process.env, process.cwd());
  // One reading of FORGE_ALLOW_HOSTS and FORGE_RESOLVE for every way out: tools and MCP transports alike.
  const destinations = { allowHosts: parseAllowHosts(config.allowHosts), resolve: parseResolveEntries(config.resolve) };
  const fetch = createGuardedFetch(destinations);
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools(searchConfigFromEnv(config.env))) registry.register(tool);
  const optionalTools = createOptionalTools(config.enabledToolGroups, { workspace: config.workspace, home: config.home, fetch, env: config.env, server: parts.server === true });
  for (const tool of optionalTools) registry.register(tool);
  const redactor = parts.redactor ?? new SecretRedactor();
  for (const secret of secretsFromEnvironment(config.env)) redactor.add(secret);
  const scaling = await openScaling(config, parts);
  const { queue, fanOut } = scaling;
  const store = parts.store ?? (await openStore({ url: config.databaseUrl }).catch(async (error: unknown) => {
    await scaling.close();
    throw error;
  }));
  const secrets = installationSecretBox({ secretKey: config.secretKey, home: config.home });
  const mcp = new McpConnectionManager({
    store: store.mcpServers,
    registry,
    redactor,
    secrets,
    fetch: createGuardedStreamFetch(destinations),
    // The local opt-in for stdio servers is explicit: --allow-stdio when adding one (remembered for it), or FORGE_MCP_ALLOW_STDIO=1.
    stdio: parts.mcp?.stdio ?? (config.mcpAllowStdio ? 'allow' : 'remembered'),
    clientInfo: { name: 'forge', version: FORGE_VERSION },
    ...(parts.mcp?.backoff === undefined ? {} : { backoff: parts.mcp.backoff }),
    ...(parts.mcp?.timeoutMs === undefined ? {} : { timeoutMs: parts.mcp.timeoutMs }),
  });
  const close = async () => {
    await scaling.close();
    await mcp.close();
    await closeOptionalTools(optionalTools);
    await store.close();
  };
  try {
    // The store is the toolbox's truth. A broken manifest left to migrate, or a damaged entry, is set aside
    // with a notice: it blocks only the toolbox tools it holds, never the command.
    const toolbox = await Toolbox.open(toolboxFolder(config.home), store.toolbox);
    const notices = [...(toolbox.migration === null ? [] : [describeManifestMigration(toolbox.migration)]), ...(await toolbox.unreadable()).map(describeUnreadableEntry)];
    const bus = parts.bus ?? new InProcessEventBus({ redactor });
    const runs = new RunFrontDoor({
      // The runs use the runtime composed below.
      runtime: () => runtime,
      store,
      bus,
      home: config.home,
      owner: { pid: process.pid, host: hostname() },
      ...(fanOut === undefined ? {} : { fanOut }),
      // Every run's model calls pass its account's and key's daily quotas, then what the caller plugs in.
      modelCallChecks: [quotaCheck(store, { isPriced: (model) => priceOf(model) !== undefined }), ...(parts.modelCallChecks ?? [])],
      releaseRun: (runId) => releaseRunOfTools(optionalTools, runId),
    });
    // A run a dead process left running is ended now, loudly, never left running for ever.
    await runs.endInterruptedRuns();
    await mcp.start({ waitMs: parts.mcp?.startupWaitMs ?? 3_000 });
    await registerPromotedTools(registry, toolbox);
    const engine = new PolicyEngine({ store: store.policies, requireApproval: config.requireApproval, workspace: config.workspace });
    const policy = parts.policy ?? engine;
    const approvals = parts.approvals ?? refuseApprovals;
    const skills = new SkillService({ store, registry, policy, approvals });
    const runtime: ForgeRuntime = {
      config,
      store,
      bus,
      redactor,
      registry,
      fetch,
      policy,
      policies: new PolicyService({ store: store.policies, engine, registry }),
      approvals,
      approvalSealer: new ApprovalSealer(secrets),
      credentials: redactedCredentials(parts.credentials ?? new EnvironmentCredentials(config.env), redactor),
      queue,
      mode: fanOut === undefined ? 'embedded' : 'scaled',
      fanOut,
      mcp,
      toolbox,
      notices,
      runs,
      tools: new ToolService({ registry, toolbox, fetch }),
      skills,
      stats: new StatsService(store, config.databaseUrl),
      accounts: new AccountService({ store: store.accounts, sessionKey: once(() => loadSessionKey({ sessionKey: config.env['FORGE_SESSION_KEY'], home: config.home })) }),
      apiKeys: new ApiKeyService(store.accounts),
      quotas: new QuotaService(store),
      providerKeys: new ProviderKeyService(store.providerKeys, secrets),
      // A customer run replays the pinned version as a run of the seller's, like any skill run.
      marketplace: new MarketplaceService({
        store,
        skills,
        replay: async ({ skill, inputs, userId }) => (await runs.submit({ kind: 'skill_replay', skill, inputs }, { userId })).result(),
      }),
      close,
    };
    // A run that waited past its approval's expiry is ended now, like an interrupted one.
    await expireWaitingRuns(runtime);
    return runtime;
  } catch (error) {
    // Nothing opened here may outlive a failed start: connections, the queue and the database are closed again.
    await close();
    throw error;
  }
}

/**
 * The queue and the fan-out: given parts as they are; else, with FORGE_REDIS_URL, BullMQ and Redis
 * pub/sub on it (loaded only then); else the in-process queue and no fan-out (the embedded mode).
 */
async function openScaling(config: ForgeConfig, parts: RuntimeParts): Promise<{ queue: JobQueue; fanOut: EventFanOut | undefined; close(): Promise<void> }> {
  if (parts.queue !== undefined || parts.fanOut !== undefined || config.redisUrl === undefined) {
    const queue = parts.queue ?? new InProcessJobQueue();
    return { queue, fanOut: parts.fanOut, close: async () => {
      await queue.close();
      await parts.fanOut?.close();
    } };
  }
  const { refuseRedisWithoutPassword } = await import('../adapters/redis/index.js');
  await refuseRedisWithoutPassword(config.redisUrl, { allowNoPassword: config.redisAllowNoPassword });
  const { openRedisScaling } = await import('../adapters/scaling/index.js');
  // A worker renews its hold on a job every half lock; one that died leaves its jobs to another after lock + check interval.
  const lock = config.queueLockMs;
  return openRedisScaling({ url: config.redisUrl, prefix: config.redisPrefix, queue: { lockDurationMs: lock, stalledIntervalMs: Math.max(250, Math.round(lock / 2)) } });
}

function describeManifestMigration(migration: ToolboxManifestMigration): string {
  if (migration.problem !== null) {
    return `toolbox: ${migration.file} cannot be read (${migration.problem.issues.join('; ')}), so nothing was imported from it; it was set aside as ${migration.movedTo}. Fix it and bring its tools in with \`forge tools import ${migration.movedTo}\`.`;
  }
  const what = migration.imported > 0 ? `moved ${migration.imported} tool${migration.imported === 1 ? '' : 's'} from ${migration.file} into the store` : `the store already holds the toolbox, so ${migration.file} was not read`;
  return `toolbox: ${what}; the store is now the toolbox's only truth, and the file was kept as ${migration.movedTo} (\`forge tools export\` writes a manifest when you want one).`;
}

/** A damaged toolbox entry is left out of the catalog; every command says so once, with the way out. */
function describeUnreadableEntry(error: ToolboxEntryError): string {
  return `toolbox: ${error.message}; it is left out. ${error.hint ?? ''}`;
}

/** `make`'s value, made on first use and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
