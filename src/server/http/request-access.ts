import type { IncomingMessage } from 'node:http';
import { bearerTokenMatches } from './bearer-token.js';
import type { HostAllowList } from './host-allow-list.js';

/** Who may talk to a server: the `Host` values it answers to and, optionally, a bearer token. */
export interface HttpAccessRules {
  readonly hosts: HostAllowList;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Foreign origins (exact) whose pages may call in besides the server's own (CORS). */
  readonly origins?: readonly string[];
  /** A probe path (see `ListenHttpOptions.probePaths`): any `Host` and no token, only a browser's `Origin` is judged. */
  readonly probe?: boolean;
}

/** Why a request is refused, as the HTTP answer to give. */
export interface AccessRefusal {
  readonly status: 400 | 401 | 403;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The refusal for a request that breaks the rules, or undefined when it may go on. In order: exactly
 * one `Host` header, on the allow-list (DNS rebinding); an `Origin`, when a browser sends one, whose
 * host is on the list too (a page of another site calling in); then the bearer token, when one is set.
 * Messages never repeat the token.
 */
export function accessRefusal(request: IncomingMessage, rules: HttpAccessRules): AccessRefusal | undefined {
  const hostHeaders = request.rawHeaders.filter((_value, index) => index % 2 === 0 && request.rawHeaders[index]!.toLowerCase() === 'host');
  if (hostHeaders.length !== 1) return { status: 400, message: `Bad request: expected exactly one Host header, got ${hostHeaders.length}.` };
  const host = request.headers.host ?? '';
  if (rules.probe !== true && !rules.hosts.allows(host)) {
    return { status: 403, message: `Forbidden: this server does not answer to Host "${host.slice(0, 100)}" (it answers to ${rules.hosts.entries.join(', ')}).` };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !originAllowed(origin, rules.hosts) && rules.origins?.includes(origin) !== true) {
    return { status: 403, message: `Forbidden: requests from origin "${origin.slice(0, 100)}" are not accepted.` };
  }
  if (rules.token !== undefined && !bearerTokenMatches(request.headers.authorization, rules.token)) {
    return { status: 401, message: 'Unauthorized: send the access token as "Authorization: Bearer <token>".', headers: { 'www-authenticate': 'Bearer realm="forge"' } };
  }
  return undefined;
}

function originAllowed(origin: string, hosts: HostAllowList): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return hosts.allows(url.host, url.protocol === 'https:' ? '443' : '80');
}
