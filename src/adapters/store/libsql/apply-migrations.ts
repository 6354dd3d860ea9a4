import type { Migration } from '../migrations/index.js';
import { applyPendingMigrations } from '../sql/index.js';
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
    await applyPendingMigrations(async (statement) => connection.execute(statement), migrations);
    connection.execute('COMMIT');
  } catch (error) {
    if (connection.inTransaction) connection.execute('ROLLBACK');
    throw error;
  }
}
