/** Shapes of values that decide how a recorded value is read: an id is never wording, a URL never an input. */

export function isUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim());
}

/**
 * An identifier: one token (no whitespace) of at least four characters holding at least three digits
 * (`#W2890441`, `8384507844`, `mei_davis_8935`, `credit_card_7901829`, `c-102`, an email with digits).
 * Ids name one particular thing, so they are never read as words of a request, and a recorded id is
 * never replayed into a write for somebody else.
 */
export function isIdLike(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 4 && !/\s/.test(value) && (value.match(/\d/g) ?? []).length >= 3 && !isUrl(value);
}

/**
 * Whether a field records the state of a thing rather than what it is: a boolean (`available`), or a
 * lower-case word or phrase under a key that says so (`status: "pending"`, `order_state: "shipped"`;
 * not `state: "TX"`, which is a place). A recording's observed states become preconditions and
 * conditions that a replay checks again on fresh results.
 */
export function isStateField(key: string | number | undefined, value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  return typeof value === 'string' && typeof key === 'string' && /(^|_)(status|state)$/i.test(key) && /^[a-z][a-z _-]{0,39}$/.test(value);
}

/** A scalar a condition can compare. */
export function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
