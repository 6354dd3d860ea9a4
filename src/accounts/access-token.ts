import { createHmac } from 'node:crypto';

/** How long an access token holds; a client refreshes it with its refresh token. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;

const issuer = 'forge';
const audience = 'forge-api';

export interface AccessClaims {
  readonly userId: string;
  readonly sessionId: string;
}

/** A short-lived access token: an HS256 JWT naming the user (`sub`) and the session (`sid`). */
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, now: Date = new Date()): Promise<string> {
  const { SignJWT } = await import('jose');
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
    .sign(key);
}

/**
 * The claims of a token this server signed that has not expired; undefined for anything else (another
 * algorithm, `alg: none`, another key, another issuer or audience, expired, malformed). Whether its
 * session is still live is the caller's check.
 */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims | undefined> {
  const { jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, audience, requiredClaims: ['sub', 'sid', 'exp'] });
    if (typeof payload.sub !== 'string' || typeof payload['sid'] !== 'string') return undefined;
    return { userId: payload.sub, sessionId: payload['sid'] };
  } catch {
    return undefined;
  }
}

/** The CSRF token of a session: an HMAC of its id, so it cannot be made without the key, nor moved to another session. */
export function csrfTokenFor(key: Uint8Array, sessionId: string): string {
  return createHmac('sha256', key).update(`csrf:${sessionId}`).digest('base64url');
}
