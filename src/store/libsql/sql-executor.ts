import type { InStatement, ResultSet } from '@libsql/client';

/** What a table store needs to run SQL: a client, or an open transaction so writes commit together. */
export interface SqlExecutor {
  execute(statement: InStatement): Promise<ResultSet>;
}
