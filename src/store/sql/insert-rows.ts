import type { SqlValue, WriteStep } from './sql-access.js';

/** Rows per statement: 100 rows of up to 9 values stay far below SQLite's limit on bound values. */
const ROWS_PER_STATEMENT = 100;

/**
 * The steps that insert rows, one multi-row INSERT per 100 rows: preparing one statement for many rows
 * is what makes recording a busy run cheap. `onError` maps a broken constraint to the caller's error.
 */
export function insertRowSteps(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], onError?: (error: unknown) => unknown): WriteStep[] {
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const steps: WriteStep[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    steps.push({
      statement: { sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => placeholders).join(', ')}`, args: chunk.flat() },
      ...(onError === undefined ? {} : { onError }),
    });
  }
  return steps;
}
