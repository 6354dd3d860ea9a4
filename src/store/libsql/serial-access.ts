import type { Client, InStatement, ResultSet, TransactionMode } from '@libsql/client';
import type { SqlBatchExecutor } from './sql-executor.js';

/**
 * One database client shared by every run of a process, used one operation at a time.
 *
 * The embedded driver is synchronous: a write that meets another connection's lock waits for it
 * inside SQLite's busy handler, blocking the event loop. An open transaction of this same process
 * can then never finish, so two concurrent runs would stall each other for the whole busy timeout and
 * fail with SQLITE_BUSY (an in-memory database, which has one connection, fails at once instead).
 * Queuing this process's operations (a transaction holds its turn until it settles) removes that:
 * only other processes are ever waited on. Each statement is a short synchronous call, so the queue
 * costs no parallelism the driver had.
 */
export class SerialAccess {
  private tail: Promise<unknown> = Promise.resolve();
  readonly executor: SqlBatchExecutor;

  constructor(client: Client) {
    this.executor = {
      execute: (statement: InStatement): Promise<ResultSet> => this.exclusive(() => client.execute(statement)),
      batch: (statements: InStatement[], mode?: TransactionMode): Promise<ResultSet[]> => this.exclusive(() => client.batch(statements, mode)),
    };
  }

  /** Runs `work` once every operation queued before it has settled; nothing else runs until it settles. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(work);
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
