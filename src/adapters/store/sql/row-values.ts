import type { SqlRow } from './sql-access.js';

// The schema guarantees each column's type; a mismatch means the database was changed behind Forge's back,
// and reading on would hand callers wrong data.
function mismatch(column: string, expected: string, value: unknown): Error {
  return new TypeError(`Column "${column}" holds ${typeof value} where the schema promises ${expected}; the database was changed outside Forge.`);
}

export function readText(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw mismatch(column, 'text', value);
  return value;
}

export function readNullableText(row: SqlRow, column: string): string | null {
  return row[column] === null ? null : readText(row, column);
}

export function readNumber(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value !== 'number') throw mismatch(column, 'a number', value);
  return value;
}

export function readNullableNumber(row: SqlRow, column: string): number | null {
  return row[column] === null ? null : readNumber(row, column);
}

/** The single row a write with RETURNING produced. */
export function onlyRow(rows: readonly SqlRow[]): SqlRow {
  const row = rows[0];
  if (row === undefined || rows.length > 1) throw new Error(`Expected exactly one row back from the database, got ${rows.length}.`);
  return row;
}
