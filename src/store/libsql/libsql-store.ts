import { systemErrorOf, type AccountStore, type MarketplaceStore, type ProviderKeyStore, type PolicyStore, type AgentStore, type ApprovalStore, type RunStateStore, type ConversationStore, type EventStore, type McpServerStore, type ModelCallStore, type RunStore, type RunWrites, type SkillStore, type StatsStore, type StepStore, type Store, type ToolboxStore } from '../../core/index.js';
import { migrationsFor } from '../migrations/index.js';
import { applyMigrations } from './apply-migrations.js';
import { GroupCommitWriter } from './group-commit-writer.js';
import { LibsqlAccountStore } from './libsql-account-store.js';
import { LibsqlMarketplaceStore } from './libsql-marketplace-store.js';
import { LibsqlProviderKeyStore } from './libsql-provider-key-store.js';
import { LibsqlPolicyStore } from './libsql-policy-store.js';
import { LibsqlAgentStore } from './libsql-agent-store.js';
import { LibsqlApprovalStore } from './libsql-approval-store.js';
import { LibsqlRunStateStore } from './libsql-run-state-store.js';
import { LibsqlConversationStore } from './libsql-conversation-store.js';
import { LibsqlEventStore } from './libsql-event-store.js';
import { LibsqlMcpServerStore } from './libsql-mcp-server-store.js';
import { LibsqlModelCallStore } from './libsql-model-call-store.js';
import { LibsqlRunStore } from './libsql-run-store.js';
import { LibsqlRunWrites } from './libsql-run-writes.js';
import { LibsqlSkillStore } from './libsql-skill-store.js';
import { LibsqlStatsStore } from './libsql-stats-store.js';
import { LibsqlStepStore } from './libsql-step-store.js';
import { LibsqlToolboxStore } from './libsql-toolbox-store.js';
import { InlineSqlEngine } from './inline-sql-engine.js';
import type { SqlAccess, SqlStatement } from './sql-access.js';
import type { SqlEngine } from './sql-engine.js';
import { SqliteConnection } from './sqlite-core.mjs';
import { sqliteDialect } from './sqlite-dialect.js';
import { WorkerSqlEngine } from './worker-sql-engine.js';

/** How long a read or a write waits for another process's lock on the same file before it fails, by default. */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Where a file database's SQL runs: on the main thread (the default), or on its own worker thread.
 * Measured with `npm run bench:concurrency` on 2 cores, the main thread is faster (1,000 runs 1.42×
 * the ideal against 1.56×, 2,000 runs 1.63× against 2.42×): once statements are prepared once and
 * grouped per tick, SQLite's work is smaller than the cost of copying every statement to a thread
 * that competes for the same two cores. The worker stays for machines where that balance differs.
 */
export type SqlThread = 'worker' | 'main';

/**
 * The embedded store: a libSQL (SQLite) database in one file, or in memory. `open` runs the schema
 * migrations before it resolves, and refuses a database a newer Forge wrote (`SchemaVersionError`).
 *
 * One connection per process, on the main thread or (for a file, on request) owned by a worker thread;
 * an in-memory database always lives on the main thread, since only its own connection can see it.
 * A lock another process holds is waited for without blocking the event loop. Reads run at once. Writes go through one
 * group-commit writer: every write made during a tick, by any run, commits in one transaction at the
 * next (see `GroupCommitWriter`), and a write's promise resolves once it is committed. A committed write
 * survives the process being killed; with `synchronous = NORMAL` in WAL mode, a power loss or an
 * operating-system crash can lose the last commits but never corrupts the file. Foreign keys are
 * enforced, so records cannot point at a missing owner.
 */
export class LibsqlStore implements Store {
  readonly runs: RunStore;
  readonly events: EventStore;
  readonly steps: StepStore;
  readonly conversations: ConversationStore;
  readonly modelCalls: ModelCallStore;
  readonly skills: SkillStore;
  readonly mcpServers: McpServerStore;
  readonly toolbox: ToolboxStore;
  readonly stats: StatsStore;
  readonly runStates: RunStateStore;
  readonly approvals: ApprovalStore;
  readonly accounts: AccountStore;
  readonly marketplace: MarketplaceStore;
  readonly providerKeys: ProviderKeyStore;
  readonly policies: PolicyStore;
  readonly agents: AgentStore;
  private readonly writer: GroupCommitWriter;
  private readonly named: (error: unknown) => never;

  private constructor(
    private readonly engine: SqlEngine,
    file: string,
  ) {
    this.writer = new GroupCommitWriter(engine);
    // SQLite's errors never say which database; a read-only or damaged file is named with the fix.
    this.named = (error: unknown): never => {
      throw (file === ':memory:' ? undefined : systemErrorOf(error, file)) ?? error;
    };
    const sql: SqlAccess = {
      read: (statement: SqlStatement | string) => engine.read(typeof statement === 'string' ? { sql: statement } : statement).catch(this.named),
      write: (steps) => this.writer.write(steps).catch(this.named),
    };
    this.runs = new LibsqlRunStore(sql);
    this.events = new LibsqlEventStore(sql);
    this.steps = new LibsqlStepStore(sql);
    this.conversations = new LibsqlConversationStore(sql);
    this.modelCalls = new LibsqlModelCallStore(sql);
    this.skills = new LibsqlSkillStore(sql);
    this.mcpServers = new LibsqlMcpServerStore(sql);
    this.toolbox = new LibsqlToolboxStore(sql);
    this.stats = new LibsqlStatsStore(sql);
    this.runStates = new LibsqlRunStateStore(sql);
    this.approvals = new LibsqlApprovalStore(sql);
    this.accounts = new LibsqlAccountStore(sql);
    this.marketplace = new LibsqlMarketplaceStore(sql);
    this.providerKeys = new LibsqlProviderKeyStore(sql);
    this.policies = new LibsqlPolicyStore(sql);
    this.agents = new LibsqlAgentStore(sql);
  }

  /**
   * Opens the database at a path or `:memory:`, and migrates it. The folder of a file must already
   * exist (`openStore` creates it). Each `:memory:` store is its own database. `busyTimeoutMs` bounds
   * the wait for another process's lock (default 5 s); `thread` says where a file's SQL runs.
   */
  static async open(options: { path: string; busyTimeoutMs?: number; thread?: SqlThread }): Promise<LibsqlStore> {
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    // Migrated on the main thread first, waiting for another process's lock with timers.
    const connection = SqliteConnection.open(options.path, { busyTimeoutMs: 0 });
    try {
      await applyMigrations(connection, migrationsFor(sqliteDialect), busyTimeoutMs);
    } catch (error) {
      connection.close();
      throw error;
    }
    if (options.path === ':memory:' || options.thread !== 'worker') return new LibsqlStore(new InlineSqlEngine(connection, busyTimeoutMs), options.path);
    connection.close();
    return new LibsqlStore(await WorkerSqlEngine.start(options.path, busyTimeoutMs), options.path);
  }

  async transaction(work: (writes: RunWrites) => Promise<void>): Promise<void> {
    const writes = new LibsqlRunWrites();
    await work(writes);
    await this.writer.write(writes.collected).catch(this.named);
  }

  async close(): Promise<void> {
    // Whatever is still queued (a run's last events) is committed before the connection goes.
    await this.writer.close();
    await this.engine.close();
  }
}
