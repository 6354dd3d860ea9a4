/**
 * How an engine describes the store's tables to `listTables`: two queries over its own catalog that
 * answer in one shape, so listing tables (and copying them) is written once for every engine.
 */
export interface TableCatalog {
  /**
   * One row per column of every table in the store's schema, each table's in column order, with
   * `table_name`, `column_name`, `key_position` (the column's place in the primary key from 1, 0 when
   * it is not in it) and `generated` (1 for the key the engine assigns on insert, else 0).
   */
  readonly columnsQuery: string;
  /** One row per foreign key of a table in the store's schema: `table_name` and the `referenced_table`. */
  readonly referencesQuery: string;
}

/** One table as `listTables` describes it. */
export interface TableShape {
  readonly name: string;
  /** Every column, in the table's order. */
  readonly columns: readonly string[];
  /** The primary key's columns, in key order. */
  readonly key: readonly string[];
  /** The key column the engine assigns on insert (a run's `ordinal`, a message's `id`), if the table has one. */
  readonly generatedKey: string | undefined;
  /** The other tables this one's foreign keys point at. */
  readonly references: readonly string[];
}

/** An identifier (a table or column name from the catalog) quoted for the statement text, the same in both engines. */
export function quotedIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
