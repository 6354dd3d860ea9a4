import type { SqlDialect } from '../migrations/index.js';

/** SQLite's spelling, as libSQL speaks it. AUTOINCREMENT so that ids of deleted rows are never reused. */
export const sqliteDialect: SqlDialect = {
  generatedKeyColumn: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  jsonInteger: (column, key) => `CAST(json_extract(${column}, '$.${key}') AS INTEGER)`,
  skipLockedRows: '',
};
