import Database from 'libsql';
import type { SqlResult, SqlStatement } from './sql-access.js';

type Statement = Database.Statement;

/** Prepared statements kept per connection; the SQL Forge runs has a few hundred distinct texts at most. */
const STATEMENT_CACHE_SIZE = 512;

/**
 * One SQLite connection (libSQL's embedded engine), opened with the settings Forge relies on:
 * write-ahead logging for a file (readers never wait for the writer), `synchronous = NORMAL` (see the
 * durability note in the README: a commit survives the process being killed; a power loss or an
 * operating-system crash can lose the last commits, never corrupt the file), foreign keys enforced,
 * and no busy wait (`busy_timeout = 0`): a lock held by another process is reported at once as
 * SQLITE_BUSY, so the caller can wait for it without blocking the event loop.
 *
 * Every call is synchronous and short. Statements are prepared once and reused.
 */
export class SqliteConnection {
  private readonly statements = new Map<string, Statement>();

  private constructor(private readonly database: Database.Database) {}

  /** Opens a database file (which must exist or be creatable) or `:memory:`. */
  static open(location: string): SqliteConnection {
    const connection = new SqliteConnection(new Database(location));
    try {
      if (location !== ':memory:') connection.execute('PRAGMA journal_mode = WAL');
      connection.execute('PRAGMA synchronous = NORMAL');
      connection.execute('PRAGMA foreign_keys = ON');
      connection.execute('PRAGMA busy_timeout = 0');
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  execute(statement: SqlStatement | string): SqlResult {
    const { sql, args = [] } = typeof statement === 'string' ? { sql: statement } : statement;
    const prepared = this.prepared(sql);
    if (prepared.reader) return { rows: prepared.all(args) as SqlResult['rows'], rowsAffected: 0, lastInsertRowid: 0 };
    const { changes, lastInsertRowid } = prepared.run(args);
    return { rows: [], rowsAffected: changes, lastInsertRowid: Number(lastInsertRowid) };
  }

  get inTransaction(): boolean {
    return this.database.inTransaction;
  }

  close(): void {
    this.statements.clear();
    if (this.database.open) this.database.close();
  }

  private prepared(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      // Most recently used last, so the oldest is the one evicted.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const prepared = this.database.prepare(sql);
    this.statements.set(sql, prepared);
    if (this.statements.size > STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    return prepared;
  }
}

/** Whether SQLite refused because another connection holds a lock (SQLITE_BUSY or SQLITE_LOCKED, any variant). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
