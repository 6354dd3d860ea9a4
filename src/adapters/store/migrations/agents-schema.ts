import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 17: agent definitions. `agents` holds one row per agent (its slug, name, the version runs use
 * and the latest); `agent_versions` every saved version as a full snapshot with the fields it changed,
 * its message and author, immutable. `runs.agent_slug` / `runs.agent_version` pin a run to the version
 * it ran.
 */
export function agentsSchema(_dialect: SqlDialect): Migration {
  return {
    version: 17,
    name: 'agents',
    up: [
      `CREATE TABLE agents (
        slug TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        active_version INTEGER NOT NULL,
        latest_version INTEGER NOT NULL,
        user_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE agent_versions (
        slug TEXT NOT NULL REFERENCES agents (slug) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version >= 1),
        definition TEXT NOT NULL,
        changed_fields TEXT NOT NULL,
        message TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (slug, version)
      )`,
      `ALTER TABLE runs ADD COLUMN agent_slug TEXT`,
      `ALTER TABLE runs ADD COLUMN agent_version INTEGER`,
    ],
  };
}
