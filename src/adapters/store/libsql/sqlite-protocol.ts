import type { SqlResult, SqlStatement } from '../sql/index.js';

/** One unit of a group commit as the engine runs it: its statements, and which must change a row. */
export interface UnitRequest {
  readonly statements: readonly SqlStatement[];
  /** Per statement: fail the unit when it changed no row (an update of a record that does not exist). */
  readonly requireChange: readonly boolean[];
}

/** A database error as it crosses a thread: enough to map a broken constraint and to report the rest. */
export interface SqlFailureData {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** How one unit of a group ended; a failed unit was rolled back alone, naming its failing statement. */
export type UnitOutcome =
  | { readonly ok: true; readonly results: SqlResult[] }
  | { readonly ok: false; readonly step: number; readonly unchanged: true }
  | { readonly ok: false; readonly step: number; readonly unchanged: false; readonly error: SqlFailureData };

/** How a group ended: committed (each unit with its outcome), or not at all (every unit lost). */
export type GroupOutcome = { readonly committed: true; readonly outcomes: UnitOutcome[] } | { readonly committed: false; readonly error: SqlFailureData };

/** What the store's worker thread starts with. */
export interface SqliteWorkerData {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

export type SqliteWorkerRequest =
  | { readonly id: number; readonly type: 'read'; readonly statement: SqlStatement }
  | { readonly id: number; readonly type: 'group'; readonly units: readonly UnitRequest[] }
  /** Closes the connection (checkpointing the write-ahead log) before the thread is stopped. */
  | { readonly id: number; readonly type: 'close' };

export type SqliteWorkerReply =
  | { readonly id: number; readonly ok: true; readonly value: SqlResult | GroupOutcome }
  | { readonly id: number; readonly ok: false; readonly error: SqlFailureData };
