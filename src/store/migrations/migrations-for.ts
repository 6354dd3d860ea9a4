import { initialSchema } from './initial-schema.js';
import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/** Every migration of the schema, oldest first, spelled for `dialect`. Append new versions at the end. */
export function migrationsFor(dialect: SqlDialect): readonly Migration[] {
  return [initialSchema(dialect)];
}
