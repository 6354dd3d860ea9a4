import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 7: what a run is (`kind`: agent, converge, skill, tool-call), which process runs it (`owner_pid`,
 * `owner_host`: while that process lives nobody may call the run interrupted) and where its run log is.
 * Runs stored before are agent runs with no known owner or log.
 */
export function runOwnersSchema(_dialect: SqlDialect): Migration {
  return {
    version: 7,
    name: 'run-owners',
    up: [
      "ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'agent'",
      'ALTER TABLE runs ADD COLUMN owner_pid INTEGER',
      'ALTER TABLE runs ADD COLUMN owner_host TEXT',
      'ALTER TABLE runs ADD COLUMN log_file TEXT',
    ],
  };
}
