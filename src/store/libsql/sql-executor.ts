import type { InStatement, ResultSet, TransactionMode } from '@libsql/client';

/** What a table store needs to run SQL: a client, or an open transaction so writes commit together. */
export interface SqlExecutor {
  execute(statement: InStatement): Promise<ResultSet>;
}

/** A table store that writes several statements atomically also needs a batch. */
export interface SqlBatchExecutor extends SqlExecutor {
  batch(statements: InStatement[], mode?: TransactionMode): Promise<ResultSet[]>;
}
