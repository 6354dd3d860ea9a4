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
  close(): Promise<void>;
}

/** A database error again, from what crossed the thread: its message, and its SQLite code for mapping. */
export function sqlErrorFrom(data: SqlFailureData): Error {
  return Object.assign(new Error(data.message), { name: data.name, ...(data.code === undefined ? {} : { code: data.code }) });
}
