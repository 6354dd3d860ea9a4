import type pg from 'pg';
import type { Migration } from '../migrations/index.js';
import { applyPendingMigrations } from '../sql/index.js';
import { runStatement } from './postgres-statement.js';

/**
 * The key of the advisory lock every Forge process takes to migrate a database: the bytes of "forge",
 * one fixed number for every schema of the server's database, so no two migrations of it ever overlap.
 */
export const MIGRATION_LOCK_KEY = 0x666f726765;

/**
 * Brings the database (in `schema`, created when missing, or in the connection's search path) up to
 * `migrations` in one transaction, under the advisory lock: several processes starting at once on a new
 * database wait for each other, and the first applies every migration while the others, once they get
 * the lock, find them applied and change nothing. A failure rolls everything back, the schema's creation
 * included. Throws `SchemaVersionError`, changing nothing, for a database with versions it does not know.
 */
export async function applyPostgresMigrations(client: pg.ClientBase, migrations: readonly Migration[], schema: string | undefined): Promise<void> {
  // READ COMMITTED (not the units' SERIALIZABLE): each statement sees what committed before it, so once
  // the lock is ours the versions read are those the previous holder recorded.
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // `schema` is a plain identifier (see `postgresConnection`), safe in the statement's text.
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await applyPendingMigrations((statement) => runStatement(client, statement), migrations);
    await client.query('COMMIT');
  } catch (error) {
    // The migration's failure is what to report; a connection too broken to roll back is closed by its owner.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
