import { NotFoundError, type RunState, type RunStateStore } from '../../../core/index.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { readText } from './row-values.js';
import type { SqlAccess } from './sql-access.js';

/** Each loop run's last checkpoint in `run_states`, one row per run, replaced in place. */
export class SqlRunStateStore implements RunStateStore {
  constructor(private readonly sql: SqlAccess) {}

  async save(state: RunState): Promise<void> {
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO run_states (run_id, version, state, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (run_id) DO UPDATE SET version = excluded.version, state = excluded.state, updated_at = excluded.updated_at`,
          args: [state.run_id, state.version, toJsonColumn(state), new Date().toISOString()],
        },
        onError: (error) =>
          constraintViolation(error) === 'foreign-key' ? new NotFoundError('run', state.run_id, 'Create the run before checkpointing it.') : error,
      },
    ]);
  }

  async get(runId: string): Promise<unknown> {
    const result = await this.sql.read({ sql: 'SELECT state FROM run_states WHERE run_id = ?', args: [runId] });
    const row = result.rows[0];
    return row === undefined ? undefined : fromJsonColumn(readText(row, 'state'));
  }
}
