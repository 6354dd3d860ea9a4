export type { Migration } from './migration.js';
export type { SqlDialect } from './sql-dialect.js';
export { migrationsFor } from './migrations-for.js';
export { pendingMigrations } from './pending-migrations.js';
export { createSchemaMigrationsTable } from './schema-migrations-table.js';
export { SchemaVersionError } from './schema-version-error.js';
