import type { SqlValue, WriteStep } from './sql-access.js';

/** Rows per statement: 100 rows of up to 21 values stay far below either engine's limit on bound values. */
const ROWS_PER_STATEMENT = 100;

/** A `VALUES (?, …), (?, …)` clause for some rows, with the values it binds. */
export interface ValuesClause {
  readonly sql: string;
  readonly args: SqlValue[];
}

/**
 * The rows as `VALUES` clauses of at most 100 rows each, for multi-row INSERTs: preparing one
 * statement for many rows is what makes recording a busy run, or copying a table, cheap.
 */
export function valuesClauses(columnCount: number, rows: readonly (readonly SqlValue[])[]): ValuesClause[] {
  const placeholders = `(${Array.from({ length: columnCount }, () => '?').join(', ')})`;
  const clauses: ValuesClause[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    clauses.push({ sql: `VALUES ${chunk.map(() => placeholders).join(', ')}`, args: chunk.flat() });
  }
  return clauses;
}

/**
 * The steps that insert rows, one multi-row INSERT per 100 rows (see `valuesClauses`). `onError` maps a
 * broken constraint to the caller's error.
 */
export function insertRowSteps(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], onError?: (error: unknown) => unknown): WriteStep[] {
  return valuesClauses(columns.length, rows).map((values) => ({
    statement: { sql: `INSERT INTO ${table} (${columns.join(', ')}) ${values.sql}`, args: values.args },
    ...(onError === undefined ? {} : { onError }),
  }));
}
