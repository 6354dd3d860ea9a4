import type pg from 'pg';
import { valuesClauses, type SqlRow, type SqlValue, quotedIdentifier, type TableShape } from '../sql/index.js';
import { runStatement } from './postgres-statement.js';

/**
 * Inserts every batch into `table` in one transaction on `client`, 100 rows a statement, with the
 * values of its identity column as given (`OVERRIDING SYSTEM VALUE`, since the column is GENERATED
 * ALWAYS), then sets the column's sequence to the largest, so the next row the store inserts gets the
 * next id. Each row is read by the table's column names. Resolves with the rows inserted; on a failure
 * the transaction is rolled back and the error rethrown.
 */
export async function loadPostgresTable(client: pg.ClientBase, table: TableShape, batches: AsyncIterable<readonly SqlRow[]>): Promise<number> {
  const into = `INSERT INTO ${quotedIdentifier(table.name)} (${table.columns.map(quotedIdentifier).join(', ')}) OVERRIDING SYSTEM VALUE`;
  await client.query('BEGIN');
  try {
    let inserted = 0;
    for await (const batch of batches) {
      const rows = batch.map((row) => table.columns.map((column) => row[column] as SqlValue));
      for (const values of valuesClauses(table.columns.length, rows)) await runStatement(client, { sql: `${into} ${values.sql}`, args: values.args });
      inserted += batch.length;
    }
    if (table.generatedKey !== undefined && inserted > 0) {
      const key = quotedIdentifier(table.generatedKey);
      await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), (SELECT MAX(${key}) FROM ${quotedIdentifier(table.name)}))`, [quotedIdentifier(table.name), table.generatedKey]);
    }
    await client.query('COMMIT');
    return inserted;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
