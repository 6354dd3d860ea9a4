import type { SqlDialect } from '../migrations/index.js';

/** PostgreSQL's spelling. An identity column that refuses explicit values (ALWAYS), so ids come only from its sequence, never reused. */
export const postgresDialect: SqlDialect = {
  generatedKeyColumn: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  jsonInteger: (column, key) => `(${column}::jsonb ->> '${key}')::bigint`,
  skipLockedRows: ' FOR UPDATE SKIP LOCKED',
};
