import { readNumber } from './row-values.js';
import type { SqlAccess, SqlRow, SqlValue } from './sql-access.js';
import { quotedIdentifier, type TableShape } from './table-catalog.js';

/** How many rows `table` holds. */
export async function countRows(sql: SqlAccess, table: TableShape): Promise<number> {
  const result = await sql.read(`SELECT COUNT(*) AS row_count FROM ${quotedIdentifier(table.name)}`);
  return readNumber(result.rows[0]!, 'row_count');
}

/**
 * Every row of `table`, in primary-key order, `batchSize` at a time. Each page is read after the last
 * key of the one before (a row-value comparison both engines index), so reading a large table costs
 * the same per page from its first to its last.
 */
export async function* tableRows(sql: SqlAccess, table: TableShape, batchSize: number): AsyncIterable<SqlRow[]> {
  if (table.key.length === 0) throw new Error(`The table ${table.name} has no primary key to read it in order by.`);
  const columns = table.columns.map(quotedIdentifier).join(', ');
  const key = table.key.map(quotedIdentifier).join(', ');
  let after: SqlValue[] | undefined;
  for (;;) {
    const result = await sql.read({
      sql: `SELECT ${columns} FROM ${quotedIdentifier(table.name)}${after === undefined ? '' : ` WHERE (${key}) > (${after.map(() => '?').join(', ')})`} ORDER BY ${key} LIMIT ?`,
      args: [...(after ?? []), batchSize],
    });
    if (result.rows.length > 0) yield [...result.rows];
    if (result.rows.length < batchSize) return;
    const last = result.rows.at(-1)!;
    after = table.key.map((column) => last[column] as SqlValue);
  }
}
