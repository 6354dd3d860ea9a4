import { assertRowLimit } from '../row-limit.js';

/**
 * The value to bind to `LIMIT ?` for a caller's row limit: the limit itself, or, when there is none, the
 * largest safe integer, a count no table reaches. Both engines take it; they disagree on every spelling
 * of "no limit" (SQLite reads -1 so and refuses NULL, PostgreSQL reads NULL so and refuses -1). A
 * negative limit from the caller is refused before it gets here.
 */
export function sqlLimit(option: string, value: number | undefined): number {
  assertRowLimit(option, value);
  return value ?? Number.MAX_SAFE_INTEGER;
}
