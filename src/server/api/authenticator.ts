import type { AccountService, ApiKeyService } from '../../accounts/index.js';
import { OPERATOR, type Principal } from '../../core/index.js';
import { ApiError, type RouteAccess } from './api-route.js';
import { ACCESS_COOKIE, cookieValue } from './session-cookies.js';

/**
 * Who a request acts as: resolves the principal its credentials prove, or undefined when it carries
 * none (or none that hold). It never throws for bad credentials; a route that is not public then
 * answers 401. It throws only for a cookie-authenticated write without its CSRF token (403).
 */
export type Authenticator = (request: Request, access: RouteAccess) => Promise<Principal | undefined>;

/**
 * A server without accounts: every request that reached the API (past the listener's Host, Origin and
 * admin-password checks) acts as the operator.
 */
export const operatorAuthenticator: Authenticator = async () => OPERATOR;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token of an `Authorization: Bearer <token>` header. */
function bearerOf(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * A server with accounts. Credentials, the first present wins: `X-API-Key` (a service key, within its
 * scopes), `Authorization: Bearer <access token>`, or the `forge_access` cookie. A cookie is sent by the
 * browser on its own, so a write it authenticates must also carry the session's `X-CSRF-Token` (a page
 * of another site cannot read it); without it the request is refused, never run as anonymous.
 */
export function accountAuthenticator(accounts: AccountService, apiKeys: ApiKeyService): Authenticator {
  return async (request, access) => {
    const key = request.headers.get('x-api-key');
    if (key !== null) return apiKeys.principalForKey(key, (userId) => accounts.roleOf(userId));
    const bearer = bearerOf(request.headers.get('authorization'));
    if (bearer !== undefined) return accounts.principalForAccessToken(bearer);
    const cookie = cookieValue(request.headers.get('cookie'), ACCESS_COOKIE);
    if (cookie === undefined) return undefined;
    const principal = await accounts.principalForAccessToken(cookie);
    if (principal === undefined || SAFE_METHODS.has(request.method)) return principal;
    if (accounts.csrfMatches(principal.credentialId ?? '', request.headers.get('x-csrf-token') ?? '')) return principal;
    // A public route (sign in again, say) goes on as anonymous; anything else is a cross-site attempt.
    if (access === 'public') return undefined;
    throw new ApiError(403, 'CsrfTokenMissing', 'A write authenticated by the session cookie needs the session\'s CSRF token.', 'Send the forge_csrf cookie\'s value as the X-CSRF-Token header.');
  };
}
