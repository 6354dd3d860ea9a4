export type { SqlAccess, SqlResult, SqlRow, SqlStatement, SqlValue, WriteStep } from './sql-access.js';
export { SqlStore } from './sql-store.js';
export { applyPendingMigrations } from './apply-pending-migrations.js';
export { stepFailure, type StepOutcome } from './step-failure.js';
export { valuesClauses } from './insert-rows.js';
export { quotedIdentifier, type TableCatalog, type TableShape } from './table-catalog.js';
export { canLoadTables, hasStoreTables, type StoreTables, type TableLoading } from './store-tables.js';
