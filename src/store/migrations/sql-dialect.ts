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
}
