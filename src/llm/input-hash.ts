import { createHash } from 'node:crypto';

/** SHA-256 (hex, first 16 bytes) of a model request, so identical calls can be found in the log. */
export function hashModelInput(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 32);
}
