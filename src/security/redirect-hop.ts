import { NetworkError } from '../core/index.js';
import { shortUrl } from './short-url.js';

/** One request the guard sends; a redirect produces the next one. */
export interface RequestHop {
  readonly url: URL;
  readonly method: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

// Carried to another origin; everything else (authorization, cookies, API-key headers such as
// X-Subscription-Token) stays with the origin it was meant for.
const crossOriginSafeHeaders = new Set(['accept', 'accept-language', 'user-agent']);

/**
 * The request a redirect response asks for, or `undefined` when the response is not a redirect to
 * follow (no Location, or a status that is not 301/302/303/307/308). Follows browser rules for the
 * method: 303 becomes GET, and so does POST after 301/302; 307/308 keep method and body.
 */
export function nextRedirectHop(status: number, location: string | undefined, current: RequestHop): RequestHop | undefined {
  if (!redirectStatuses.has(status) || location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch (error) {
    throw new NetworkError(shortUrl(current.url), `redirected (HTTP ${status}) to an invalid Location: ${shortUrl(location)}`, error);
  }
  const becomesGet = (status === 303 && current.method !== 'HEAD') || ((status === 301 || status === 302) && current.method === 'POST');
  const sameOrigin = url.origin === current.url.origin;
  const headers = Object.fromEntries(
    Object.entries(current.headers).filter(([name]) => {
      if (becomesGet && name.startsWith('content-')) return false;
      return sameOrigin || crossOriginSafeHeaders.has(name);
    }),
  );
  return { url, method: becomesGet ? 'GET' : current.method, headers, body: becomesGet ? undefined : current.body };
}
