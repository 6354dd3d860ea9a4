import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';

/** A stable fingerprint of a tool's input JSON Schema (key order does not matter; any other change does). */
export function schemaHash(inputSchema: unknown): string {
  return createHash('sha256').update(canonicalJson(inputSchema)).digest('hex').slice(0, 16);
}
