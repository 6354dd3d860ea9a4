import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 2: stored skills. The skill document is kept whole as JSON text (it carries its own format
 * version, which the skills module reads); name, description and status are copies kept for listing
 * and lookup. `name` is unique because the CLI addresses skills by name.
 */
export function skillsSchema(dialect: SqlDialect): Migration {
  return {
    version: 2,
    name: 'skills-schema',
    up: [
      `CREATE TABLE skills (
        ordinal ${dialect.generatedKeyColumn},
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL,
        document TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'stale')),
        stale_reason TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    ],
  };
}
