import type { InValue } from '@libsql/client';
import type { SqlExecutor } from './sql-executor.js';

/** Rows per statement: 100 rows of up to 9 values stay far below SQLite's limit on bound values. */
const ROWS_PER_STATEMENT = 100;

/**
 * Inserts rows with one multi-row INSERT per 100 rows. Preparing one statement for many rows is what
 * makes recording a busy run cheap; inside a transaction the whole insert commits with the rest.
 */
export async function insertRows(executor: SqlExecutor, table: string, columns: readonly string[], rows: readonly (readonly InValue[])[]): Promise<void> {
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await executor.execute({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => placeholders).join(', ')}`,
      args: chunk.flat(),
    });
  }
}
