import type { Migration } from './migration.js';
import { SchemaVersionError } from './schema-version-error.js';

/**
 * The migrations a database still needs, in the order to apply them, given the versions it has
 * already applied. Throws `SchemaVersionError` when the database has applied a version that
 * `migrations` does not contain, because then this code does not know what the schema looks like.
 */
export function pendingMigrations(migrations: readonly Migration[], appliedVersions: readonly number[]): Migration[] {
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = appliedVersions.filter((version) => !known.has(version)).sort((left, right) => left - right);
  if (unknown.length > 0) {
    throw new SchemaVersionError(unknown, Math.max(0, ...known));
  }
  const applied = new Set(appliedVersions);
  return migrations.filter((migration) => !applied.has(migration.version));
}
