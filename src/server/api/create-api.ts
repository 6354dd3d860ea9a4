import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { ZodError, type z } from 'zod';
import { describeError, ForgeError } from '../../core/index.js';
import { QuotaExceededError } from '../../accounts/index.js';
import { ownsRecord, type Principal } from '../../core/index.js';
import { DEFAULT_EVENT_STREAM_LIMITS, type ApiLimits, type ForgeRuntime } from '../../compose/index.js';
import { ApiError, type ApiRoute, type ApiServerState, type RouteContext } from './api-route.js';
import { apiRoutes } from './api-routes.js';
import { operatorAuthenticator, type Authenticator } from './authenticator.js';
import { CorsPolicy } from './cors-policy.js';
import { openApiDocument } from './openapi.js';
import { RateLimiter } from '../http/rate-limiter.js';

/** What @hono/node-server hands each request: the Node request, for the caller's address, and the response, for its backlog. */
interface NodeBindings {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

/** The limits a server runs with unless configured (FORGE_API_*). */
export const DEFAULT_API_LIMITS: ApiLimits = { maxBodyBytes: 1_000_000, rateLimitPerMinute: 120, timeoutMs: 60_000, corsOrigins: [], eventStreams: DEFAULT_EVENT_STREAM_LIMITS };

/**
 * Sign-in attempts a minute per address and email together: guessing one account's password stays slow
 * whatever the general limit, and failures from elsewhere never lock its owner out. Trying many emails
 * from one address is held by that address's general limit.
 */
const LOGIN_PER_MINUTE = 10;

/**
 * Who a request counts against: its key, its account, or, without credentials, its address. The
 * operator of a server without accounts (loopback, or the admin password) is not limited.
 */
function rateKey(principal: Principal | undefined, address: string): string | undefined {
  if (principal?.via === 'operator') return undefined;
  if (principal?.via === 'api-key') return `key:${principal.credentialId}`;
  if (principal?.via === 'session') return `user:${principal.userId}`;
  return `address:${address}`;
}

function rateLimited(retryAfterSeconds: number, what: string): ApiError {
  return new ApiError(429, 'RateLimited', `Too many ${what}; try again in ${retryAfterSeconds} s.`, 'Slow down: the Retry-After header says when to retry (FORGE_API_RATE_LIMIT sets the limit).');
}

/** `work`, or a 503 once `ms` pass (the work itself goes on: what it commits stays committed). */
async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ApiError(503, 'Timeout', `The request took longer than ${Math.round(ms / 1000)} s and was given up on.`, 'Retry; long work belongs in a run (POST /api/v1/runs), whose events stream.')), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface CreateApiOptions {
  /** Body size, rate limits, timeouts and cross-origin access; default `DEFAULT_API_LIMITS`. */
  readonly limits?: ApiLimits;
  /** The clock of the rate limits (tests). */
  readonly now?: () => number;
  /** Who each request acts as; default: the operator (a server without accounts). */
  readonly authenticate?: Authenticator;
  /** The installation's first admin account, owner of records stored without one; default: none. */
  readonly firstAdminId?: () => Promise<string | null>;
}

/** Refuses a principal that may not call `route`: 401 without credentials, 403 without the route's scope. */
function requireAccess(route: ApiRoute, principal: Principal | undefined): void {
  if (route.access === 'public') return;
  if (principal === undefined) throw new ApiError(401, 'Unauthenticated', 'This route needs credentials.', 'Sign in (POST /api/v1/auth/login), or send an API key as X-API-Key.');
  if (route.access === 'signed-in') return;
  if (!principal.scopes.includes(route.access)) throw new ApiError(403, 'MissingScope', `This key lacks the scope ${route.access}.`, `Create a key with --scope ${route.access}.`);
}

/** The HTTP status an error is answered with: refusals by what they are, anything unexpected 500. */
function statusOf(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  if (error instanceof ZodError) return 400;
  if (ForgeError.isInstance(error)) {
    switch (error.name) {
      case 'NotFoundError':
        return 404;
      case 'AuthenticationError':
        return 401;
      case 'AccountPermissionError':
      case 'MarketplacePermissionError':
        return 403;
      case 'DuplicateRecordError':
      case 'SkillConflictError':
      case 'RunNotResumableError':
      case 'RunNotCancellableError':
      case 'ApprovalAnswerError':
      case 'RunStateError':
        return 409;
      case 'QuotaExceededError':
        return 429;
      case 'ConfigurationError':
      case 'UnknownToolsError':
      case 'ModelNotConfiguredError':
        return 400;
      default:
        return 400;
    }
  }
  return 500;
}

/** The error envelope's fields besides name, message and hint: a quota refusal names the quota, its limit and when it resets. */
type ErrorDetails = { quota?: { name: string; subject: { kind: string; id: string }; limit: number; used: number; resets_at: string | null; retry_after_seconds: number } };

function errorBody(error: unknown): { error: { name: string; message: string; hint?: string } & ErrorDetails } {
  if (error instanceof ZodError) {
    const issues = error.issues.slice(0, 5).map((issue) => `${issue.path.length === 0 ? '(body)' : issue.path.join('.')}: ${issue.message}`);
    return { error: { name: 'InvalidRequest', message: `The request is not valid: ${issues.join('; ')}.`, hint: 'See /api/v1/openapi.json for the shape each route takes.' } };
  }
  if (statusOf(error) === 500) return { error: { name: 'InternalError', message: 'The server failed to answer this request.', hint: 'Retry; if it persists, the server log says why.' } };
  const described = describeError(error);
  const details: ErrorDetails = error instanceof QuotaExceededError ? { quota: quotaDetails(error) } : {};
  return { error: { name: described.name, message: described.message, hint: described.hint ?? 'See /api/v1/openapi.json.', ...details } };
}

function quotaDetails(error: QuotaExceededError): NonNullable<ErrorDetails['quota']> {
  const { refusal } = error;
  return { name: refusal.quota, subject: { kind: refusal.subject.kind, id: refusal.subject.id }, limit: refusal.limit, used: refusal.used, resets_at: refusal.resetsAt, retry_after_seconds: refusal.retryAfterSeconds };
}

function tooLarge(maxBytes: number, length?: number): ApiError {
  return new ApiError(413, 'RequestTooLarge', `The request body ${length === undefined ? 'passed' : `is ${length} bytes; the most this API reads is`} ${maxBytes} bytes.`, 'Send a smaller body (FORGE_API_MAX_BODY_BYTES sets the limit).');
}

/** The body as text, read chunk by chunk and given up on (413) as soon as it passes `maxBytes`, with or without a Content-Length. */
async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > maxBytes) throw tooLarge(maxBytes, length);
  if (request.body === null) return '';
  const chunks: Uint8Array[] = [];
  let read = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readBody(context: Context, route: ApiRoute, maxBytes: number): Promise<unknown> {
  if (route.body === undefined) return undefined;
  const text = await readLimitedText(context.req.raw, maxBytes);
  if (text.trim() === '') return {};
  if (!(context.req.header('content-type') ?? '').includes('application/json')) throw new ApiError(400, 'UnsupportedMediaType', 'The request body must be JSON.', 'Send it with Content-Type: application/json.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'InvalidJson', 'The request body is not valid JSON.', 'Send a JSON object.');
  }
}

function queryOf(context: Context): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(context.req.queries())) query[key] = values.length === 1 ? values[0]! : values;
  return query;
}

/**
 * Forge's HTTP API as a Hono app: every route of `apiRoutes` under `/api/v1` (health and readiness at
 * the root), bodies validated with their zod schemas at the edge and answered with theirs, errors in the
 * `{"error": {name, message, hint}}` envelope, the OpenAPI document at `/api/v1/openapi.json`. Access
 * rules (Host, Origin, token) are applied by the listener before a request reaches it.
 */
export function createApi(runtime: ForgeRuntime, server: ApiServerState, options: CreateApiOptions = {}): Hono<{ Bindings: NodeBindings }> {
  const authenticate = options.authenticate ?? operatorAuthenticator;
  const limits = options.limits ?? DEFAULT_API_LIMITS;
  const clock = options.now === undefined ? {} : { now: options.now };
  // FORGE_API_RATE_LIMIT=0 turns both off: requests, and sign-in attempts.
  const requests = limits.rateLimitPerMinute === 0 ? undefined : new RateLimiter({ perMinute: limits.rateLimitPerMinute, burst: limits.rateLimitPerMinute, ...clock });
  const logins = limits.rateLimitPerMinute === 0 ? undefined : new RateLimiter({ perMinute: LOGIN_PER_MINUTE, burst: LOGIN_PER_MINUTE, ...clock });
  const cors = new CorsPolicy(limits.corsOrigins);
  const app = new Hono<{ Bindings: NodeBindings }>();
  app.use('*', async (context, next) => {
    await next();
    context.header('x-content-type-options', 'nosniff');
    context.header('referrer-policy', 'no-referrer');
    context.header('x-frame-options', 'DENY');
    context.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    context.header('cross-origin-resource-policy', 'same-origin');
    if (context.res.headers.get('cache-control') === null) context.header('cache-control', 'no-store');
    for (const [name, value] of Object.entries(cors.headersFor(context.req.header('origin')))) context.header(name, value);
  });
  app.options('*', (context) => cors.preflight(context.req.header('origin')));
  for (const route of apiRoutes) {
    const path = route.root === true ? route.path : `/api/v1${route.path}`;
    app.on(route.method.toUpperCase(), path, async (context) => {
      try {
        const address = context.env?.incoming?.socket.remoteAddress ?? 'unknown';
        const principal = await authenticate(context.req.raw, route.access);
        // Counted before the access check, so requests with wrong keys or tokens (guesses) count against their address.
        const key = rateKey(principal, address);
        const decision = key === undefined ? undefined : requests?.take(key);
        if (decision !== undefined && !decision.allowed) {
          context.header('retry-after', String(decision.retryAfterSeconds));
          throw rateLimited(decision.retryAfterSeconds, 'requests');
        }
        requireAccess(route, principal);
        const firstAdminId = principal === undefined || principal.via === 'operator' ? null : await (options.firstAdminId?.() ?? null);
        const responseHeaders = new Headers();
        const routeContext: RouteContext = {
          runtime,
          principal,
          owns: (ownerId) => principal !== undefined && ownsRecord(principal, ownerId, firstAdminId),
          ownedBy: principal === undefined || principal.via === 'operator' || principal.userId === null ? undefined : { userId: principal.userId, includeUnowned: principal.userId === firstAdminId },
          responseHeaders,
          params: context.req.param() as Record<string, string>,
          query: route.query === undefined ? undefined : queryOf(context),
          body: await readBody(context, route, limits.maxBodyBytes),
          request: context.req.raw,
          server,
          connection: {
            unsentBytes: () => context.env?.outgoing?.writableLength ?? 0,
            reset: () => context.env?.outgoing?.socket?.resetAndDestroy(),
          },
        };
        if (route.query !== undefined) route.query.parse(routeContext.query);
        if (route.path === '/auth/login' && logins !== undefined) {
          const email = String((routeContext.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase();
          const login = logins.take(`address:${address} email:${email}`);
          if (!login.allowed) {
            context.header('retry-after', String(login.retryAfterSeconds));
            throw rateLimited(login.retryAfterSeconds, 'sign-in attempts');
          }
        }
        // Streams and downloads last as long as they last; every other answer is due within the timeout.
        const streams = route.response === 'event-stream' || route.response === 'ndjson';
        const result = streams ? await route.handle(routeContext) : await withinTime(route.handle(routeContext), limits.timeoutMs);
        if (result instanceof Response) return result;
        // The response schema is the contract: an answer that breaks it is a server bug, never sent half-checked.
        const body = (route.response as z.ZodType).parse(result);
        for (const [name, value] of responseHeaders) context.header(name, value, { append: true });
        return context.json(body as object, route.status ?? 200);
      } catch (error) {
        if (error instanceof ApiError && error.retryAfterSeconds !== undefined) context.header('retry-after', String(error.retryAfterSeconds));
        if (error instanceof QuotaExceededError) context.header('retry-after', String(error.refusal.retryAfterSeconds));
        return context.json(errorBody(error), statusOf(error) as 400);
      }
    });
  }
  app.get('/api/v1/openapi.json', (context) => context.json(openApiDocument()));
  app.notFound((context) => context.json({ error: { name: 'NotFound', message: `No route ${context.req.method} ${new URL(context.req.url).pathname}.`, hint: 'See /api/v1/openapi.json for the routes.' } }, 404));
  app.onError((_error, context) => context.json(errorBody(new Error('unexpected')), 500));
  return app;
}
