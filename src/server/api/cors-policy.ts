const ALLOWED_HEADERS = 'content-type, authorization, x-api-key, x-csrf-token, last-event-id';
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/**
 * Cross-origin access: none by default (same origin only). The origins listed in FORGE_CORS_ORIGINS,
 * and only they, get `Access-Control-Allow-Origin` echoed back with credentials; every answer to a
 * request that carries an Origin varies on it. The listener refuses every other foreign Origin.
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins);
  }

  allows(origin: string | undefined | null): origin is string {
    return origin !== undefined && origin !== null && this.origins.has(origin);
  }

  /** Headers for an answer to a request from `origin`. */
  headersFor(origin: string | undefined | null): Record<string, string> {
    if (!this.allows(origin)) return origin === undefined || origin === null ? {} : { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-expose-headers': 'retry-after', vary: 'Origin' };
  }

  /** The answer to a preflight (OPTIONS) from `origin`: allowed with methods and headers, or refused. */
  preflight(origin: string | undefined | null): Response {
    if (!this.allows(origin)) return new Response(null, { status: 403, headers: origin === undefined || origin === null ? {} : { vary: 'Origin' } });
    return new Response(null, { status: 204, headers: { ...this.headersFor(origin), 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-allow-headers': ALLOWED_HEADERS, 'access-control-max-age': '600' } });
  }
}
