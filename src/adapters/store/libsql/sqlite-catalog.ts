import type { TableCatalog } from '../sql/index.js';

/**
 * SQLite's catalog: `sqlite_master` and the table-valued pragmas. A single-column INTEGER primary key
 * is the rowid, which SQLite assigns (Forge's are AUTOINCREMENT); SQLite's own tables are left out.
 */
export const sqliteCatalog: TableCatalog = {
  columnsQuery: `SELECT m.name AS table_name, c.name AS column_name, c.pk AS key_position,
      CASE WHEN c.pk = 1 AND upper(c.type) = 'INTEGER' AND (SELECT COUNT(*) FROM pragma_table_info(m.name) k WHERE k.pk > 0) = 1 THEN 1 ELSE 0 END AS generated
    FROM sqlite_master m JOIN pragma_table_info(m.name) c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
    ORDER BY m.name, c.cid`,
  referencesQuery: `SELECT DISTINCT m.name AS table_name, f."table" AS referenced_table
    FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table'`,
};
