/** The bookkeeping table: one row per applied migration. Plain SQL that every supported engine accepts. */
export const createSchemaMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;
