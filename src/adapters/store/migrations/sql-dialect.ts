/**
 * The few spellings that differ between the SQL engines Forge stores into. The schema is written once,
 * in SQL that SQLite and PostgreSQL both accept, and takes from here only what they spell differently.
 */
export interface SqlDialect {
  /**
   * The definition of an integer primary key column that the database assigns on insert, larger for
   * every later row and never reused (SQLite: `INTEGER PRIMARY KEY AUTOINCREMENT`; PostgreSQL:
   * `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`).
   */
  readonly generatedKeyColumn: string;
  /**
   * An expression reading the integer at top-level key `key` of the JSON text in `column`, NULL when the
   * key is absent (SQLite: `CAST(json_extract(column, '$.key') AS INTEGER)`; PostgreSQL:
   * `(column::jsonb ->> 'key')::bigint`). `column` and `key` are identifiers of the schema, never input.
   */
  jsonInteger(column: string, key: string): string;
  /**
   * What a subquery that picks rows to update appends so that concurrent writers skip the rows another
   * holds instead of waiting for them and then claiming them again (PostgreSQL: ` FOR UPDATE SKIP
   * LOCKED`; SQLite: nothing, since one writer at a time makes a single UPDATE a compare-and-set).
   */
  readonly skipLockedRows: string;
}
