import type { SignedIn } from '../../accounts/index.js';

/** The short-lived access token: sent with every request, readable by no script. */
export const ACCESS_COOKIE = 'forge_access';
/** The refresh token: sent only to the auth routes. */
export const REFRESH_COOKIE = 'forge_refresh';
/** The session's CSRF token: readable by the web UI's scripts, which echo it as X-CSRF-Token. */
export const CSRF_COOKIE = 'forge_csrf';

const REFRESH_PATH = '/api/v1/auth';

/** The value of cookie `name` in a Cookie header; undefined when absent. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    if (part.slice(0, equals).trim() === name) return decodeURIComponent(part.slice(equals + 1).trim());
  }
  return undefined;
}

function cookie(name: string, value: string, options: { path: string; maxAge: number; httpOnly: boolean; secure: boolean }): string {
  return [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAge}`, 'SameSite=Lax', ...(options.httpOnly ? ['HttpOnly'] : []), ...(options.secure ? ['Secure'] : [])].join('; ');
}

/** Set-Cookie headers for a sign-in: HttpOnly tokens, SameSite=Lax, Secure when the request came over TLS. */
export function sessionCookies(signedIn: SignedIn, request: Request): string[] {
  const secure = new URL(request.url).protocol === 'https:';
  const refreshSeconds = Math.max(0, Math.floor((Date.parse(signedIn.refreshExpiresAt) - Date.now()) / 1000));
  return [
    cookie(ACCESS_COOKIE, signedIn.accessToken, { path: '/', maxAge: signedIn.accessExpiresInSeconds, httpOnly: true, secure }),
    cookie(REFRESH_COOKIE, signedIn.refreshToken, { path: REFRESH_PATH, maxAge: refreshSeconds, httpOnly: true, secure }),
    cookie(CSRF_COOKIE, signedIn.csrfToken, { path: '/', maxAge: refreshSeconds, httpOnly: false, secure }),
  ];
}

/** Set-Cookie headers that clear a sign-in's cookies. */
export function clearedSessionCookies(request: Request): string[] {
  const secure = new URL(request.url).protocol === 'https:';
  return [
    cookie(ACCESS_COOKIE, '', { path: '/', maxAge: 0, httpOnly: true, secure }),
    cookie(REFRESH_COOKIE, '', { path: REFRESH_PATH, maxAge: 0, httpOnly: true, secure }),
    cookie(CSRF_COOKIE, '', { path: '/', maxAge: 0, httpOnly: false, secure }),
  ];
}
