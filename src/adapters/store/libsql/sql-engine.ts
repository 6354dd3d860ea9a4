import type { SqlResult, SqlStatement } from '../sql/index.js';
import type { GroupOutcome, SqlFailureData, UnitRequest } from './sqlite-protocol.js';

/**
 * Where the store's SQL runs: on the main thread (`InlineSqlEngine`, for in-memory databases) or on a
 * worker thread that owns the file's connection (`WorkerSqlEngine`). Both run reads at once and commit
 * a group of units in one transaction (see `commitGroup` in sqlite-core.mjs), in the order asked.
 */
export interface SqlEngine {
  read(statement: SqlStatement): Promise<SqlResult>;
  /** Opens a write transaction (waiting for another process's lock up to the busy timeout) and commits the group in it. */
  commit(units: readonly UnitRequest[]): Promise<GroupOutcome>;
  /**
   * Commits the group now, synchronously, in its own transaction, when that can be done without
   * waiting: the engine runs on this thread, no transaction is open on its connection (a group
   * committing) and no other process holds the write lock. Undefined when it cannot (always, for an
   * engine on a worker thread): nothing was done, and the caller queues the group instead.
   */
  commitAtOnce(units: readonly UnitRequest[]): GroupOutcome | undefined;
  close(): Promise<void>;
}

/** A database error again, from what crossed the thread: its message, and its SQLite code for mapping. */
export function sqlErrorFrom(data: SqlFailureData): Error {
  return Object.assign(new Error(data.message), { name: data.name, ...(data.code === undefined ? {} : { code: data.code }) });
}
