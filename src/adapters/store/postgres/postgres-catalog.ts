import type { TableCatalog } from '../sql/index.js';

/** PostgreSQL's catalog, for the tables of the connection's current schema (the store's). Identity columns are the keys it assigns. */
export const postgresCatalog: TableCatalog = {
  columnsQuery: `SELECT c.relname AS table_name, a.attname AS column_name,
      COALESCE(array_position(p.conkey, a.attnum), 0) AS key_position,
      CASE WHEN a.attidentity <> '' THEN 1 ELSE 0 END AS generated
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_constraint p ON p.conrelid = c.oid AND p.contype = 'p'
    WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
    ORDER BY c.relname, a.attnum`,
  referencesQuery: `SELECT DISTINCT c.relname AS table_name, r.relname AS referenced_table
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
    WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
};
