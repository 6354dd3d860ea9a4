import { assertRowLimit } from '../row-limit.js';

/**
 * The value to bind to `LIMIT ?` for a caller's row limit: the limit itself, or -1 when there is none,
 * which SQLite reads as "no limit". A negative limit from the caller is refused before it gets here.
 */
export function sqliteLimit(option: string, value: number | undefined): number {
  assertRowLimit(option, value);
  return value ?? -1;
}
