import type { SqlResult, SqlStatement } from '../sql/index.js';
import type { SqlEngine } from './sql-engine.js';
import { commitGroup, isBusy, type SqliteConnection } from './sqlite-core.mjs';
import type { GroupOutcome, UnitRequest } from './sqlite-protocol.js';
import { beginWrite, retryWhileBusy } from './write-lock.js';

/**
 * The SQL engine on the main thread: the default for a file, and the only one for an in-memory
 * database (which exists only on the connection that opened it, so no worker can share it). The
 * connection has no busy timeout: a lock another process holds is waited for with timers, so the event
 * loop is never blocked by the wait.
 */
export class InlineSqlEngine implements SqlEngine {
  constructor(
    private readonly connection: SqliteConnection,
    private readonly busyTimeoutMs: number,
  ) {}

  read(statement: SqlStatement): Promise<SqlResult> {
    return retryWhileBusy(() => this.connection.execute(statement), this.busyTimeoutMs, 'another process held a lock on the database');
  }

  async commit(units: readonly UnitRequest[]): Promise<GroupOutcome> {
    await beginWrite(this.connection, this.busyTimeoutMs);
    return commitGroup(this.connection, units);
  }

  commitAtOnce(units: readonly UnitRequest[]): GroupOutcome | undefined {
    if (this.connection.inTransaction) return undefined;
    try {
      this.connection.execute('BEGIN IMMEDIATE');
    } catch (error) {
      if (isBusy(error)) return undefined;
      throw error;
    }
    return commitGroup(this.connection, units);
  }

  async close(): Promise<void> {
    this.connection.close();
  }
}
