import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** A stable fingerprint of a tool's input JSON Schema (key order does not matter; any other change does). */
export function schemaHash(inputSchema: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(inputSchema))).digest('hex').slice(0, 16);
}
