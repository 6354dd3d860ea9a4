/**
 * Refuses a row limit (`limit`, `lastN`) that is not a whole number of at least 0. SQL engines would
 * otherwise read a negative limit as "no limit" or round a fraction, and silently return other rows.
 */
export function assertRowLimit(option: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${option} must be a whole number of at least 0, got ${value}.`);
  }
}
