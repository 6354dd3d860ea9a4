import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 6: skill versions with lineage. Every save adds an immutable row to `skill_versions`;
 * `skills.current_version` says which one the skill is now (rollback adds a version too, so history
 * only grows). Existing skills become version 1 of themselves, noted as recorded before versions.
 */
export function skillVersionsSchema(_dialect: SqlDialect): Migration {
  return {
    version: 6,
    name: 'skill-versions',
    up: [
      `CREATE TABLE skill_versions (
        skill_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        document TEXT NOT NULL,
        note TEXT NOT NULL,
        parent_version INTEGER,
        created_at TEXT NOT NULL,
        PRIMARY KEY (skill_id, version)
      )`,
      'ALTER TABLE skills ADD COLUMN current_version INTEGER NOT NULL DEFAULT 1',
      `INSERT INTO skill_versions (skill_id, version, document, note, parent_version, created_at)
        SELECT id, 1, document, 'saved before skills had versions', NULL, updated_at FROM skills`,
    ],
  };
}
