import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 18: schedules, work that fires every `every_ms` (deployments build on it). Due times are
 * epoch milliseconds (BIGINT), so claiming one moves it forward with integer arithmetic both engines
 * spell the same; `request` is the run request (JSON) it fires.
 */
export function schedulesSchema(_dialect: SqlDialect): Migration {
  return {
    version: 18,
    name: 'schedules',
    up: [
      `CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        every_ms BIGINT NOT NULL CHECK (every_ms >= 1000),
        request TEXT NOT NULL,
        next_due_ms BIGINT NOT NULL,
        last_fired_ms BIGINT,
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX schedules_by_due ON schedules (enabled, next_due_ms)',
    ],
  };
}
