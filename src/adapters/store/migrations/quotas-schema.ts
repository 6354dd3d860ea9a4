import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 29: quotas. `quotas` holds one row per limited subject (an account, or one service key of an
 * account: `subject_kind`, `subject_id`), its limits (NULL: unlimited) and the account it belongs to
 * (removed with the account). A run records the key that started it (`runs.api_key_id`), so a key's
 * runs can be counted; the indexes answer the counts a start and a model call are checked against
 * (runs at once, runs in the last minute, today's model calls) without reading every run.
 */
export function quotasSchema(_dialect: SqlDialect): Migration {
  return {
    version: 29,
    name: 'quotas',
    up: [
      `CREATE TABLE quotas (
        subject_kind TEXT NOT NULL CHECK (subject_kind IN ('account', 'api-key')),
        subject_id TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        concurrent_runs INTEGER CHECK (concurrent_runs >= 0),
        runs_per_minute INTEGER CHECK (runs_per_minute >= 0),
        tokens_per_day BIGINT CHECK (tokens_per_day >= 0),
        usd_per_day DOUBLE PRECISION CHECK (usd_per_day >= 0),
        allow_unpriced_models INTEGER NOT NULL CHECK (allow_unpriced_models IN (0, 1)),
        updated_at TEXT NOT NULL,
        PRIMARY KEY (subject_kind, subject_id)
      )`,
      'CREATE INDEX quotas_by_user ON quotas (user_id)',
      'ALTER TABLE runs ADD COLUMN api_key_id TEXT',
      'CREATE INDEX runs_by_user_status ON runs (user_id, status)',
      'CREATE INDEX runs_by_user_created ON runs (user_id, created_at)',
      'CREATE INDEX runs_by_api_key_status ON runs (api_key_id, status)',
      'CREATE INDEX runs_by_api_key_created ON runs (api_key_id, created_at)',
      'CREATE INDEX model_calls_by_ts ON model_calls (ts)',
    ],
  };
}
