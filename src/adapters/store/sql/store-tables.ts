import type { SqlRow } from './sql-access.js';
import type { TableShape } from './table-catalog.js';

/**
 * A store whose tables can be read as plain rows, whatever they hold: what `copyStore` reads a store
 * through. Both SQL stores have it; the `Store` contract does not, since nothing but copying needs it.
 */
export interface StoreTables {
  /** Every table of Forge's schema (not the migrations' bookkeeping), tables before those that reference them. */
  listTables(): Promise<TableShape[]>;
  /** How many rows `table` holds. */
  countRows(table: TableShape): Promise<number>;
  /** Every row of `table` in primary-key order, at most `batchSize` at a time, each read as its own page after the last key. */
  readRows(table: TableShape, batchSize: number): AsyncIterable<SqlRow[]>;
}

/** A store that can take whole tables at once: what `copyStore` writes into. */
export interface TableLoading {
  /**
   * Inserts every batch into `table` in one transaction, keeping the values of its generated key (so
   * ids and ordinals are the source's) and moving the key's generator past the largest, so new rows
   * never take a copied id. Resolves with the rows inserted; a failure inserts none of them.
   */
  loadTable(table: TableShape, batches: AsyncIterable<readonly SqlRow[]>): Promise<number>;
}

export function hasStoreTables(store: object): store is StoreTables {
  const candidate = store as Partial<StoreTables>;
  return typeof candidate.listTables === 'function' && typeof candidate.countRows === 'function' && typeof candidate.readRows === 'function';
}

export function canLoadTables(store: object): store is TableLoading {
  return typeof (store as Partial<TableLoading>).loadTable === 'function';
}
