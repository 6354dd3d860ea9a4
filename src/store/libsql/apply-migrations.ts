import { createSchemaMigrationsTable, pendingMigrations, type Migration } from '../migrations/index.js';
import { readNumber } from '../sql/row-values.js';
import type { SqliteConnection } from './sqlite-core.mjs';
import { beginWrite } from './write-lock.js';

/**
 * Brings the database up to `migrations`: applies every pending migration once, in order, and records
 * each in `schema_migrations`, all in one write transaction, so a failure leaves the database exactly
 * as it was. Applying to an up-to-date database changes nothing. Throws `SchemaVersionError`, before
 * changing anything, when the database has versions `migrations` does not know.
 */
export async function applyMigrations(connection: SqliteConnection, migrations: readonly Migration[], busyTimeoutMs = 5_000): Promise<void> {
  // A write transaction takes the lock before the applied versions are read, so two processes opening
  // the same new file cannot both decide to apply the same migration.
  await beginWrite(connection, busyTimeoutMs);
  try {
    connection.execute(createSchemaMigrationsTable);
    const applied = connection.execute('SELECT version FROM schema_migrations');
    const pending = pendingMigrations(migrations, applied.rows.map((row) => readNumber(row, 'version')));
    for (const migration of pending) {
      for (const statement of migration.up) connection.execute(statement);
      connection.execute({ sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', args: [migration.version, migration.name, new Date().toISOString()] });
    }
    connection.execute('COMMIT');
  } catch (error) {
    if (connection.inTransaction) connection.execute('ROLLBACK');
    throw error;
  }
}
