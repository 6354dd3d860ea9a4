import type pg from 'pg';
import type { SqlResult, SqlStatement } from '../sql/index.js';
import { numberedPlaceholders } from './numbered-placeholders.js';

/**
 * Runs one statement on a pool (any free connection) or on one connection, its `?` placeholders
 * numbered. `rowsAffected` counts the rows a write changed and is 0 for a query, as SQLite reports it.
 */
export async function runStatement(on: pg.Pool | pg.ClientBase, statement: SqlStatement): Promise<SqlResult> {
  const result = await on.query<Record<string, unknown>>(numberedPlaceholders(statement.sql), [...(statement.args ?? [])]);
  const wrote = result.command === 'INSERT' || result.command === 'UPDATE' || result.command === 'DELETE';
  return { rows: result.rows, rowsAffected: wrote ? (result.rowCount ?? 0) : 0 };
}
