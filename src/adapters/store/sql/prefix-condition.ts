import type { SqlValue } from './sql-access.js';

/**
 * The condition that keeps the rows whose `column` starts with `prefix`, exactly (case and every
 * character as given), with its values. LIKE finds the candidates through the column's index; its
 * pattern is built here, with `%`, `_` and `\` escaped, rather than with `? || '%'` in SQL, whose
 * parameter type PostgreSQL cannot always infer. SQLite's LIKE ignores ASCII case, so `substr` keeps
 * the match exact. `column` is an identifier of the schema, never input.
 */
export function prefixCondition(column: string, prefix: string): { readonly sql: string; readonly args: SqlValue[] } {
  return {
    sql: `${column} LIKE ? ESCAPE '\\' AND substr(${column}, 1, ?) = ?`,
    // substr counts characters (code points) in both engines, not UTF-16 units.
    args: [`${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`, Array.from(prefix).length, prefix],
  };
}
