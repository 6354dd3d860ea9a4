import type { ConversationStore, EventStore, McpServerStore, ModelCallStore, RunStore, RunWrites, SkillStore, StepStore, Store, ToolboxStore } from '../../core/index.js';
import { migrationsFor } from '../migrations/index.js';
import { applyMigrations } from './apply-migrations.js';
import { GroupCommitWriter } from './group-commit-writer.js';
import { LibsqlConversationStore } from './libsql-conversation-store.js';
import { LibsqlEventStore } from './libsql-event-store.js';
import { LibsqlMcpServerStore } from './libsql-mcp-server-store.js';
import { LibsqlModelCallStore } from './libsql-model-call-store.js';
import { LibsqlRunStore } from './libsql-run-store.js';
import { LibsqlRunWrites } from './libsql-run-writes.js';
import { LibsqlSkillStore } from './libsql-skill-store.js';
import { LibsqlStepStore } from './libsql-step-store.js';
import { LibsqlToolboxStore } from './libsql-toolbox-store.js';
import type { SqlAccess, SqlResult, SqlStatement } from './sql-access.js';
import { SqliteConnection } from './sqlite-connection.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { retryWhileBusy } from './write-lock.js';

/** How long a read or a write waits for another process's lock on the same file before it fails, by default. */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * The embedded store: a libSQL (SQLite) database in one file, or in memory. `open` runs the schema
 * migrations before it resolves, and refuses a database a newer Forge wrote (`SchemaVersionError`).
 *
 * One connection per process. Reads run at once. Writes go through one group-commit writer: every
 * write made during a tick, by any run, commits in one transaction at the next (see
 * `GroupCommitWriter`), and a write's promise resolves once it is committed. A committed write survives
 * the process being killed; with `synchronous = NORMAL` in WAL mode, a power loss or an operating-system
 * crash can lose the last commits but never corrupts the file. Foreign keys are enforced, so records
 * cannot point at a missing owner.
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
  private readonly writer: GroupCommitWriter;

  private constructor(
    private readonly connection: SqliteConnection,
    busyTimeoutMs: number,
  ) {
    this.writer = new GroupCommitWriter(connection, { busyTimeoutMs });
    const sql: SqlAccess = {
      read: (statement: SqlStatement | string): Promise<SqlResult> => retryWhileBusy(() => connection.execute(statement), busyTimeoutMs, 'another process held a lock on the database'),
      write: (steps) => this.writer.write(steps),
    };
    this.runs = new LibsqlRunStore(sql);
    this.events = new LibsqlEventStore(sql);
    this.steps = new LibsqlStepStore(sql);
    this.conversations = new LibsqlConversationStore(sql);
    this.modelCalls = new LibsqlModelCallStore(sql);
    this.skills = new LibsqlSkillStore(sql);
    this.mcpServers = new LibsqlMcpServerStore(sql);
    this.toolbox = new LibsqlToolboxStore(sql);
  }

  /**
   * Opens the database at a path or `:memory:`, and migrates it. The folder of a file must already
   * exist (`openStore` creates it). Each `:memory:` store is its own database. `busyTimeoutMs` bounds
   * the wait for another process's lock (default 5 s).
   */
  static async open(options: { path: string; busyTimeoutMs?: number }): Promise<LibsqlStore> {
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const connection = SqliteConnection.open(options.path);
    try {
      await applyMigrations(connection, migrationsFor(sqliteDialect), busyTimeoutMs);
    } catch (error) {
      connection.close();
      throw error;
    }
    return new LibsqlStore(connection, busyTimeoutMs);
  }

  async transaction(work: (writes: RunWrites) => Promise<void>): Promise<void> {
    const writes = new LibsqlRunWrites();
    await work(writes);
    await this.writer.write(writes.collected);
  }

  async close(): Promise<void> {
    // Whatever is still queued (a run's last events) is committed before the connection goes.
    await this.writer.close();
    this.connection.close();
  }
}
