/** Splits a comma-separated environment value, dropping blanks. */
export function splitEntries(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
