/** A value a statement binds: text, a number, a big integer, NULL or bytes. */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface SqlStatement {
  readonly sql: string;
  readonly args?: readonly SqlValue[];
}

/** A result row, by column name. */
export type SqlRow = Readonly<Record<string, unknown>>;

export interface SqlResult {
  /** The rows a query (or a write with RETURNING) produced; none for other writes. */
  readonly rows: readonly SqlRow[];
  /** How many rows a write changed; 0 for a query. */
  readonly rowsAffected: number;
}

/**
 * One statement of a write, with what the table store that built it knows about its failures: how to
 * turn a broken constraint into a Forge error (`onError` returns the error to throw), and the error
 * for a statement that must change a row and changed none (`ifUnchanged`, e.g. an update of a record
 * that does not exist; the unit is then rolled back). Writes are built as data so the same statements
 * commit alone, in a caller's transaction, or grouped with other runs' writes, on whichever thread or engine.
 *
 * Statements use `?` placeholders and SQL that SQLite and PostgreSQL both accept; an engine that numbers
 * its parameters translates them.
 */
export interface WriteStep {
  readonly statement: SqlStatement;
  readonly onError?: (error: unknown) => unknown;
  readonly ifUnchanged?: () => unknown;
}

/** How a table store reaches the database: reads at once, writes as atomic units of steps. */
export interface SqlAccess {
  read(statement: SqlStatement | string): Promise<SqlResult>;
  /** Runs the queries so that they all see the same committed data (no write commits between them), and resolves with each one's result, in order. */
  readTogether(statements: readonly SqlStatement[]): Promise<SqlResult[]>;
  /** Commits the steps together (all or none) and resolves with each step's result once they are committed. */
  write(steps: readonly WriteStep[]): Promise<SqlResult[]>;
  /**
   * As `write`, for a write someone waits on before going on (a run's start and its new conversation):
   * an engine that gathers writes into group commits commits it at once instead, where it can.
   */
  writeNow(steps: readonly WriteStep[]): Promise<SqlResult[]>;
}
