import { createSchemaMigrationsTable, pendingMigrations, type Migration } from '../migrations/index.js';
import { readNumber } from './row-values.js';
import type { SqlResult, SqlStatement } from './sql-access.js';

/**
 * Inside a transaction the caller opened, holding the lock that keeps other processes from migrating
 * the same database at once: creates `schema_migrations` when missing, reads the versions applied,
 * applies every pending migration in order and records each. Throws `SchemaVersionError`, before
 * changing anything, when the database has versions `migrations` does not know. The caller commits,
 * or rolls back on a failure, so the database is migrated all or not at all.
 */
export async function applyPendingMigrations(execute: (statement: SqlStatement) => Promise<SqlResult>, migrations: readonly Migration[]): Promise<void> {
  await execute({ sql: createSchemaMigrationsTable });
  const applied = await execute({ sql: 'SELECT version FROM schema_migrations' });
  const pending = pendingMigrations(migrations, applied.rows.map((row) => readNumber(row, 'version')));
  for (const migration of pending) {
    for (const statement of migration.up) await execute({ sql: statement });
    await execute({ sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', args: [migration.version, migration.name, new Date().toISOString()] });
  }
}
