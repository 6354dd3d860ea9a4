import type { GuardedResponse } from '../core/index.js';

/** Builds the response the guard hands back: a fully read (and capped) body with a lazy text view. */
export function createGuardedResponse(fields: Omit<GuardedResponse, 'text'>): GuardedResponse {
  return {
    ...fields,
    text: () => decodeBody(fields.body, fields.headers['content-type']),
  };
}

/** Decodes with the charset named by the content type; unknown or missing charsets decode as UTF-8. */
function decodeBody(body: Uint8Array, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // An unknown label: fall through to UTF-8, the web's default.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
