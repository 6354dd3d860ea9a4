import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 4: the store's mirror of the toolbox manifest (then the source of truth; since version 10
 * the store is).
 * Each entry is kept whole as JSON text, as the toolbox wrote it; name, status and updated_at are copies
 * kept for lookup and listing. `name` is unique because a manifest lists each tool once.
 */
export function toolboxSchema(dialect: SqlDialect): Migration {
  return {
    version: 4,
    name: 'toolbox-schema',
    up: [
      `CREATE TABLE toolbox_entries (
        ordinal ${dialect.generatedKeyColumn},
        name TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL CHECK (status IN ('draft', 'testing', 'failed', 'promoted')),
        entry TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    ],
  };
}
