import { createClient, type Client } from '@libsql/client';
import type { ConversationStore, EventStore, McpServerStore, ModelCallStore, RunStore, RunWrites, SkillStore, StepStore, Store, ToolboxStore } from '../../core/index.js';
import { migrationsFor } from '../migrations/index.js';
import { applyMigrations } from './apply-migrations.js';
import { LibsqlConversationStore } from './libsql-conversation-store.js';
import { LibsqlEventStore } from './libsql-event-store.js';
import { LibsqlMcpServerStore } from './libsql-mcp-server-store.js';
import { LibsqlModelCallStore } from './libsql-model-call-store.js';
import { LibsqlRunStore } from './libsql-run-store.js';
import { LibsqlSkillStore } from './libsql-skill-store.js';
import { LibsqlStepStore } from './libsql-step-store.js';
import { LibsqlToolboxStore } from './libsql-toolbox-store.js';
import { SerialAccess } from './serial-access.js';
import { sqliteDialect } from './sqlite-dialect.js';

/** How long a write waits for another process's lock on the same file before failing with SQLITE_BUSY. */
const busyTimeoutMs = 5_000;

/**
 * The embedded store: a libSQL (SQLite) database in one file, or in memory. `open` runs the schema
 * migrations before it resolves, and refuses a database a newer Forge wrote (`SchemaVersionError`).
 *
 * Every write is a single statement or a single transaction and is committed when its promise
 * resolves. libSQL opens connections with SQLite's `synchronous=FULL` and foreign keys enforced, so a
 * committed write survives a crash of the process or the machine, and records cannot point at a
 * missing owner.
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

  private readonly access: SerialAccess;

  private constructor(private readonly client: Client) {
    this.access = new SerialAccess(client);
    const sql = this.access.executor;
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
   * Opens the database at a libSQL URL, `file:<path>` or `:memory:`, and migrates it. The folder of
   * a file must already exist (`openStore` creates it). Each `:memory:` store is its own database.
   */
  static async open(options: { url: string }): Promise<LibsqlStore> {
    const client = createClient({ url: options.url, timeout: busyTimeoutMs });
    try {
      // WAL lets readers (the UI, `forge stats`) work while a run writes. The mode is stored in the file
      // itself, so setting it once covers every connection; an in-memory database keeps its own mode.
      await client.execute('PRAGMA journal_mode = WAL');
      await applyMigrations(client, migrationsFor(sqliteDialect));
    } catch (error) {
      client.close();
      throw error;
    }
    return new LibsqlStore(client);
  }

  /** Runs `work`'s writes as one transaction; this process's other store operations wait until it settles. */
  transaction(work: (writes: RunWrites) => Promise<void>): Promise<void> {
    return this.access.exclusive(() => this.transactionNow(work));
  }

  private async transactionNow(work: (writes: RunWrites) => Promise<void>): Promise<void> {
    const transaction = await this.client.transaction('write');
    try {
      await work({
        runs: new LibsqlRunStore(transaction),
        events: new LibsqlEventStore(transaction),
        steps: new LibsqlStepStore(transaction),
        modelCalls: new LibsqlModelCallStore(transaction),
      });
      await transaction.commit();
    } catch (error) {
      // The original failure is what matters; a rollback that also fails adds nothing to act on.
      await transaction.rollback().catch(() => undefined);
      throw error;
    } finally {
      transaction.close();
    }
  }

  async close(): Promise<void> {
    // Whatever is still queued (a run's last events) is written before the connection goes.
    await this.access.exclusive(async () => undefined);
    this.client.close();
  }
}
