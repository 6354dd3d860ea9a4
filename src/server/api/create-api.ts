import { Hono, type Context } from 'hono';
import { ZodError, type z } from 'zod';
import { describeError, ForgeError } from '../../core/index.js';
import { ownsRecord, type Principal } from '../../core/index.js';
import type { ForgeRuntime } from '../../runtime/index.js';
import { ApiError, type ApiRoute, type ApiServerState, type RouteContext } from './api-route.js';
import { apiRoutes } from './api-routes.js';
import { operatorAuthenticator, type Authenticator } from './authenticator.js';
import { openApiDocument } from './openapi.js';

/** The largest request body the API reads; past it the request is refused (413). */
export const MAX_BODY_BYTES = 1_000_000;

export interface CreateApiOptions {
  /** Who each request acts as; default: the operator (a server without accounts). */
  readonly authenticate?: Authenticator;
  /** The installation's first admin account, owner of records stored without one; default: none. */
  readonly firstAdminId?: () => Promise<string | null>;
}

/** The principal a non-public route acts for: 401 without credentials, 403 without the route's scope. */
async function principalFor(route: ApiRoute, request: Request, authenticate: Authenticator): Promise<Principal | undefined> {
  const principal = await authenticate(request, route.access);
  if (route.access === 'public') return principal;
  if (principal === undefined) throw new ApiError(401, 'Unauthenticated', 'This route needs credentials.', 'Sign in (POST /api/v1/auth/login), or send an API key as X-API-Key.');
  if (route.access === 'signed-in') return principal;
  if (!principal.scopes.includes(route.access)) throw new ApiError(403, 'MissingScope', `This key lacks the scope ${route.access}.`, `Create a key with --scope ${route.access}.`);
  return principal;
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
      case 'ApprovalAnswerError':
      case 'RunStateError':
        return 409;
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

function errorBody(error: unknown): { error: { name: string; message: string; hint?: string } } {
  if (error instanceof ZodError) {
    const issues = error.issues.slice(0, 5).map((issue) => `${issue.path.length === 0 ? '(body)' : issue.path.join('.')}: ${issue.message}`);
    return { error: { name: 'InvalidRequest', message: `The request is not valid: ${issues.join('; ')}.`, hint: 'See /api/v1/openapi.json for the shape each route takes.' } };
  }
  if (statusOf(error) === 500) return { error: { name: 'InternalError', message: 'The server failed to answer this request.', hint: 'Retry; if it persists, the server log says why.' } };
  const described = describeError(error);
  return { error: { name: described.name, message: described.message, hint: described.hint ?? 'See /api/v1/openapi.json.' } };
}

async function readBody(context: Context, route: ApiRoute): Promise<unknown> {
  if (route.body === undefined) return undefined;
  const length = Number(context.req.header('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) throw new ApiError(400, 'RequestTooLarge', `The request body is ${length} bytes; the most this API reads is ${MAX_BODY_BYTES}.`, 'Send a smaller body.');
  const text = await context.req.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError(400, 'RequestTooLarge', `The request body passed ${MAX_BODY_BYTES} bytes.`, 'Send a smaller body.');
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
export function createApi(runtime: ForgeRuntime, server: ApiServerState, options: CreateApiOptions = {}): Hono {
  const authenticate = options.authenticate ?? operatorAuthenticator;
  const app = new Hono();
  app.use('*', async (context, next) => {
    await next();
    context.header('x-content-type-options', 'nosniff');
    context.header('referrer-policy', 'no-referrer');
    context.header('x-frame-options', 'DENY');
  });
  for (const route of apiRoutes) {
    const path = route.root === true ? route.path : `/api/v1${route.path}`;
    app.on(route.method.toUpperCase(), path, async (context) => {
      try {
        const principal = await principalFor(route, context.req.raw, authenticate);
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
          body: await readBody(context, route),
          request: context.req.raw,
          server,
        };
        if (route.query !== undefined) route.query.parse(routeContext.query);
        const result = await route.handle(routeContext);
        if (result instanceof Response) return result;
        // The response schema is the contract: an answer that breaks it is a server bug, never sent half-checked.
        const body = (route.response as z.ZodType).parse(result);
        for (const [name, value] of responseHeaders) context.header(name, value, { append: true });
        return context.json(body as object, route.status ?? 200);
      } catch (error) {
        return context.json(errorBody(error), statusOf(error) as 400);
      }
    });
  }
  app.get('/api/v1/openapi.json', (context) => context.json(openApiDocument()));
  app.notFound((context) => context.json({ error: { name: 'NotFound', message: `No route ${context.req.method} ${new URL(context.req.url).pathname}.`, hint: 'See /api/v1/openapi.json for the routes.' } }, 404));
  app.onError((_error, context) => context.json(errorBody(new Error('unexpected')), 500));
  return app;
}
