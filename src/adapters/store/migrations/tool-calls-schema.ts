import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 16 (15 is the policy engine's): the tool-call analytics, one row per dispatched call that got
 * a result or an error: whether it succeeded, its error's name, whether the run's result cache answered
 * it, its duration and the bytes in (input JSON) and out (output or error text). Written with the run's
 * events, in the same commits. The calls already stored as steps are copied in (their error names were
 * never kept: null; none was cached), so the figures cover every stored run.
 * `tool_calls_by_run` serves one run's figures and deleting a run (its rows go with it).
 */
export function toolCallsSchema(dialect: SqlDialect): Migration {
  return {
    version: 16,
    name: 'tool-calls',
    up: [
      `CREATE TABLE tool_calls (
        id ${dialect.generatedKeyColumn},
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        error_name TEXT,
        cached INTEGER NOT NULL CHECK (cached IN (0, 1)),
        duration_ms DOUBLE PRECISION NOT NULL,
        bytes_in BIGINT NOT NULL,
        bytes_out BIGINT NOT NULL,
        at TEXT NOT NULL
      )`,
      'CREATE INDEX tool_calls_by_run ON tool_calls (run_id, id)',
      `INSERT INTO tool_calls (run_id, call_id, tool, ok, error_name, cached, duration_ms, bytes_in, bytes_out, at)
        SELECT run_id, call_id, tool, CASE WHEN error IS NULL THEN 1 ELSE 0 END, NULL, 0, duration_ms,
               COALESCE(OCTET_LENGTH(input), 0), COALESCE(OCTET_LENGTH(COALESCE(output, error)), 0), created_at
        FROM steps ORDER BY run_id, position`,
    ],
  };
}
