import { systemErrorOf } from '../../../core/index.js';
import { migrationsFor } from '../migrations/index.js';
import { applyMigrations } from './apply-migrations.js';
import { GroupCommitWriter } from './group-commit-writer.js';
import { InlineSqlEngine } from './inline-sql-engine.js';
import { type SqlAccess, type SqlStatement, SqlStore } from '../sql/index.js';
import type { SqlEngine } from './sql-engine.js';
import { SqliteConnection } from './sqlite-core.mjs';
import { sqliteCatalog } from './sqlite-catalog.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { WorkerSqlEngine } from './worker-sql-engine.js';
import { retryWhileBusy } from './write-lock.js';

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
 * The embedded store: `SqlStore`'s table stores on a libSQL (SQLite) database in one file, or in memory. `open` runs the schema
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
export class LibsqlStore extends SqlStore {
  private constructor(
    private readonly engine: SqlEngine,
    private readonly writer: GroupCommitWriter,
    file: string,
  ) {
    super(sqlAccessOf(engine, writer, file), sqliteCatalog, sqliteDialect);
  }

  /**
   * Opens the database at a path or `:memory:`, and migrates it. The folder of a file must already
   * exist (`openStore` creates it). Each `:memory:` store is its own database. `busyTimeoutMs` bounds
   * the wait for another process's lock (default 5 s); `thread` says where a file's SQL runs.
   */
  static async open(options: { path: string; busyTimeoutMs?: number; thread?: SqlThread }): Promise<LibsqlStore> {
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    // Opened and migrated on the main thread first, waiting for another process's lock with timers: switching
    // a file to write-ahead logging needs a lock that another process creating, migrating or closing the
    // same file can hold for a moment.
    const connection = await retryWhileBusy(() => SqliteConnection.open(options.path, { busyTimeoutMs: 0 }), busyTimeoutMs, 'another process held a lock on the database');
    try {
      await applyMigrations(connection, migrationsFor(sqliteDialect), busyTimeoutMs);
    } catch (error) {
      connection.close();
      throw error;
    }
    if (options.path === ':memory:' || options.thread !== 'worker') return LibsqlStore.on(new InlineSqlEngine(connection, busyTimeoutMs), options.path);
    connection.close();
    return LibsqlStore.on(await WorkerSqlEngine.start(options.path, busyTimeoutMs), options.path);
  }

  private static on(engine: SqlEngine, file: string): LibsqlStore {
    return new LibsqlStore(engine, new GroupCommitWriter(engine), file);
  }

  override async close(): Promise<void> {
    // Whatever is still queued (a run's last events) is committed before the connection goes.
    await this.writer.close();
    await this.engine.close();
  }
}

/** Reads at once and writes through the group-commit writer; SQLite's errors, which never say which database, name the file with the fix. */
function sqlAccessOf(engine: SqlEngine, writer: GroupCommitWriter, file: string): SqlAccess {
  const named = (error: unknown): never => {
    throw (file === ':memory:' ? undefined : systemErrorOf(error, file)) ?? error;
  };
  return {
    read: (statement: SqlStatement | string) => engine.read(typeof statement === 'string' ? { sql: statement } : statement).catch(named),
    // Started in one tick, the reads run back to back on the one connection, before any commit queued meanwhile.
    readTogether: (statements) => Promise.all(statements.map((statement) => engine.read(statement))).catch(named),
    write: (steps) => writer.write(steps).catch(named),
    writeNow: (steps) => writer.writeNow(steps).catch(named),
  };
}
