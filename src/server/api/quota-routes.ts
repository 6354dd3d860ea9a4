import { accountQuotaViewSchema, quotaLimitsRequestSchema } from '../../accounts/index.js';
import { requireAdmin } from './admin-only.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { clearedQuotaSchema } from '../../contract/index.js';

function adminsOnly(context: RouteContext): void {
  requireAdmin(context, 'Only an admin sets and reads the quotas of accounts.');
}

/** The key a route names, for a key's own quota; undefined for the account's. */
function keyOf(context: RouteContext): string | undefined {
  return context.params['key_id'];
}

/**
 * Quotas per account and per service key (admins only): runs at once, runs per minute, tokens and
 * dollars per UTC day, each with what the subject used. Unlimited until set; PUT replaces the whole
 * quota (limits left out are unlimited), DELETE makes it unlimited again.
 */
export const quotaRoutes: readonly ApiRoute[] = ['/accounts/:account_id/quota', '/accounts/:account_id/api-keys/:key_id/quota'].flatMap((path): ApiRoute[] => {
  const whose = path.includes(':key_id') ? 'one service key of an account' : 'an account (every run it starts, whatever the credential)';
  return [
    {
      method: 'get',
      path,
      summary: `Admins: the quota of ${whose}, with the account's and its keys' use today and in the last minute.`,
      access: 'settings:read',
      response: accountQuotaViewSchema,
      async handle(context) {
        adminsOnly(context);
        return context.runtime.quotas.show(context.params['account_id']!);
      },
    },
    {
      method: 'put',
      path,
      summary: `Admins: set (replace) the quota of ${whose}; limits left out or null are unlimited. Over it, a start is answered 429 with Retry-After and a model call ends its run quota_exceeded.`,
      access: 'settings:write',
      body: quotaLimitsRequestSchema,
      response: accountQuotaViewSchema,
      async handle(context) {
        adminsOnly(context);
        const key = keyOf(context);
        return context.runtime.quotas.set(context.params['account_id']!, quotaLimitsRequestSchema.parse(context.body ?? {}), ...(key === undefined ? [] : [key]));
      },
    },
    {
      method: 'delete',
      path,
      summary: `Admins: remove the quota of ${whose}: unlimited again.`,
      access: 'settings:write',
      response: clearedQuotaSchema,
      async handle(context) {
        adminsOnly(context);
        const key = keyOf(context);
        return context.runtime.quotas.clear(context.params['account_id']!, ...(key === undefined ? [] : [key]));
      },
    },
  ];
});
