import { createHash, timingSafeEqual } from 'node:crypto';

/** Shortest access token accepted: long enough that guessing it over the network is hopeless. */
export const MIN_TOKEN_LENGTH = 16;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether an `Authorization` header carries `Bearer <token>`. The comparison takes the same time
 * whatever the header holds: both sides are hashed to equal-length digests first, so neither the
 * token's length nor how much of a guess matched shows in the timing.
 */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  const matches = timingSafeEqual(digest(given ?? ''), digest(token));
  return given !== undefined && matches;
}
