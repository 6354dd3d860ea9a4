import { apiKeyView, userView as apiUserView, type SignedIn } from '../../accounts/index.js';
import { NotFoundError } from '../../core/index.js';
import {
  apiKeyCreateRequestSchema,
  apiKeyListSchema,
  createdApiKeySchema,
  loginRequestSchema,
  meSchema,
  refreshRequestSchema,
  sessionSchema,
  userListSchema,
  signedInSchema,
  signedOutSchema,
  signupRequestSchema,
  type SignedInBody,
} from '../../contract/index.js';
import { requireAdmin } from './admin-only.js';
import { ApiError, type ApiRoute, type RouteContext } from './api-route.js';
import { signedInAccount } from './owned-records.js';
import { REFRESH_COOKIE, clearedSessionCookies, cookieValue, sessionCookies } from './session-cookies.js';

/** Account routes answer only on a server with accounts. */
function requireAccounts(context: RouteContext): void {
  if (context.server.auth !== 'accounts') signedInAccount(context, 'Sign-in and keys are per account.');
}

/** The session's answer: the tokens in the body (for API clients) and as cookies (for browsers). */
function signedInAnswer(context: RouteContext, signedIn: SignedIn): SignedInBody {
  for (const value of sessionCookies(signedIn, context.request)) context.responseHeaders.append('set-cookie', value);
  return {
    user: apiUserView(signedIn.user),
    token_type: 'Bearer',
    access_token: signedIn.accessToken,
    expires_in: signedIn.accessExpiresInSeconds,
    refresh_token: signedIn.refreshToken,
    refresh_expires_at: signedIn.refreshExpiresAt,
    csrf_token: signedIn.csrfToken,
  };
}

/** The signed-in account behind a request (keys are made by people, not by other keys). */
function accountOf(context: RouteContext): string {
  return signedInAccount(context, 'Service keys are per account.');
}

/** Sign-in, refresh, sign-out, sign-up, who-am-I and service keys. */
export const accountRoutes: readonly ApiRoute[] = [
  {
    method: 'post',
    path: '/auth/login',
    summary: 'Sign in with email and password: an access token (15 minutes) and a refresh token, in the body and as cookies.',
    access: 'public',
    body: loginRequestSchema,
    response: signedInSchema,
    async handle(context) {
      requireAccounts(context);
      const body = loginRequestSchema.parse(context.body);
      return signedInAnswer(context, await context.runtime.accounts.signIn(body.email, body.password));
    },
  },
  {
    method: 'post',
    path: '/auth/refresh',
    summary: 'Trade a refresh token (body or forge_refresh cookie) for a new pair; each works once, and a replayed one ends its session.',
    access: 'public',
    body: refreshRequestSchema,
    response: signedInSchema,
    async handle(context) {
      requireAccounts(context);
      const token = refreshRequestSchema.parse(context.body ?? {}).refresh_token ?? cookieValue(context.request.headers.get('cookie'), REFRESH_COOKIE);
      if (token === undefined) throw new ApiError(401, 'Unauthenticated', 'No refresh token was sent.', 'Send refresh_token in the body, or sign in again.');
      return signedInAnswer(context, await context.runtime.accounts.refresh(token));
    },
  },
  {
    method: 'post',
    path: '/auth/logout',
    summary: 'Sign out: the session\'s access and refresh tokens stop working at once, and its cookies are cleared.',
    access: 'signed-in',
    response: signedOutSchema,
    async handle(context) {
      requireAccounts(context);
      for (const value of clearedSessionCookies(context.request)) context.responseHeaders.append('set-cookie', value);
      const principal = context.principal;
      if (principal?.via !== 'session' || principal.credentialId === null) return { signed_out: false };
      await context.runtime.accounts.signOut(principal.credentialId);
      return { signed_out: true };
    },
  },
  {
    method: 'post',
    path: '/auth/signup',
    summary: 'Make an account and sign in, when the server allows open sign-up (off by default).',
    access: 'public',
    body: signupRequestSchema,
    response: signedInSchema,
    status: 201,
    async handle(context) {
      requireAccounts(context);
      const body = signupRequestSchema.parse(context.body);
      return signedInAnswer(context, await context.runtime.accounts.signUp(body, context.server.openSignup));
    },
  },
  {
    method: 'get',
    path: '/auth/session',
    summary: 'How this server authenticates and whether this request is signed in (what a sign-in page needs to know, answered without a 401).',
    access: 'public',
    response: sessionSchema,
    async handle({ runtime, principal, server }) {
      const user = principal?.userId === null || principal?.userId === undefined ? undefined : await runtime.accounts.getUser(principal.userId);
      return {
        auth: server.auth,
        open_signup: server.openSignup,
        signed_in: principal !== undefined,
        via: principal?.via ?? null,
        user: user === undefined ? null : apiUserView(user),
        scopes: principal === undefined ? [] : [...principal.scopes],
      };
    },
  },
  {
    method: 'get',
    path: '/auth/me',
    summary: 'Who this request acts as, and with which scopes.',
    access: 'signed-in',
    response: meSchema,
    async handle({ runtime, principal }) {
      const user = principal?.userId === null || principal?.userId === undefined ? undefined : await runtime.accounts.getUser(principal.userId);
      return { via: principal!.via, user: user === undefined ? null : apiUserView(user), scopes: [...principal!.scopes] };
    },
  },
  {
    method: 'get',
    path: '/users',
    summary: 'Admins: the accounts of this server.',
    access: 'signed-in',
    response: userListSchema,
    async handle(context) {
      requireAccounts(context);
      requireAdmin(context, 'Only an admin sees the accounts of the server.');
      return { users: (await context.runtime.accounts.listUsers()).map(apiUserView) };
    },
  },
  {
    method: 'get',
    path: '/api-keys',
    summary: 'The caller\'s service keys (never the keys themselves), revoked ones included.',
    access: 'keys:write',
    response: apiKeyListSchema,
    handle: async (context) => ({ api_keys: (await context.runtime.apiKeys.list(accountOf(context))).map(apiKeyView) }),
  },
  {
    method: 'post',
    path: '/api-keys',
    summary: 'Make a service key with scopes and an optional expiry; the key is in this answer only. Only a signed-in session makes keys.',
    access: 'keys:write',
    body: apiKeyCreateRequestSchema,
    response: createdApiKeySchema,
    status: 201,
    async handle(context) {
      accountOf(context);
      const created = await context.runtime.apiKeys.create(context.principal!, apiKeyCreateRequestSchema.parse(context.body));
      return { key: created.key, api_key: apiKeyView(created.record) };
    },
  },
  {
    method: 'post',
    path: '/api-keys/:key_id/revoke',
    summary: 'Revoke one of the caller\'s keys: it stops working at once.',
    access: 'keys:write',
    response: apiKeyListSchema,
    async handle(context) {
      const userId = accountOf(context);
      const keyId = context.params['key_id']!;
      if (!(await context.runtime.apiKeys.revoke(userId, keyId))) throw new NotFoundError('live API key', keyId, 'List your keys with GET /api/v1/api-keys.');
      return { api_keys: (await context.runtime.apiKeys.list(userId)).map(apiKeyView) };
    },
  },
];
