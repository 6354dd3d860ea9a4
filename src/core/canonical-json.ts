/** `value` with every object's keys in sorted order, so equal data always serializes the same way. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
  return value;
}

/** JSON text that is equal for equal data whatever the key order (arrays keep theirs). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}
