import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 15: the policy engine. `policy_versions` holds every saved version of every scope's policy
 * document (installation, agent, deployment, run), immutable; the latest is the one in force.
 * `approvals.seal` signs an answer (run, call, tool, input digest, decision, times) so an answer written
 * into the database by anything but Forge's answer path is not honoured. `approval_grants` records the
 * "approve always for this tool in this run/agent" choices, signed too, revocable.
 */
export function policiesSchema(_dialect: SqlDialect): Migration {
  return {
    version: 15,
    name: 'policies',
    up: [
      `CREATE TABLE policy_versions (
        scope TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version >= 1),
        document TEXT NOT NULL,
        author TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (scope, version)
      )`,
      `ALTER TABLE approvals ADD COLUMN seal TEXT`,
      `CREATE TABLE approval_grants (
        id TEXT PRIMARY KEY,
        scope TEXT NOT NULL,
        tool TEXT NOT NULL,
        granted_by TEXT NOT NULL,
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        seal TEXT NOT NULL,
        revoked_at TEXT,
        revoked_by TEXT
      )`,
      `CREATE INDEX approval_grants_scope_tool ON approval_grants (scope, tool)`,
    ],
  };
}
