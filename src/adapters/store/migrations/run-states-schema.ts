import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 9: what a paused or interrupted run needs to go on. `run_states` holds each loop run's last
 * checkpoint (a `RunState` as JSON text, replaced at every turn boundary). `approvals` holds each call a
 * policy sent for approval: bound to its run, its call id and the digest of its input, answered once
 * (`approved` or `denied`), then `used` when the run acts on it, or `expired`.
 */
export function runStatesSchema(_dialect: SqlDialect): Migration {
  return {
    version: 9,
    name: 'run-states',
    up: [
      `CREATE TABLE run_states (
        run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE approvals (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        input_digest TEXT NOT NULL,
        reason TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'used', 'expired')),
        requested_at TEXT NOT NULL,
        expires_at TEXT,
        answer_reason TEXT,
        answered_at TEXT,
        PRIMARY KEY (run_id, call_id)
      )`,
      'CREATE INDEX approvals_by_status ON approvals (status, requested_at)',
    ],
  };
}
