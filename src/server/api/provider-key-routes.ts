import type { z } from 'zod';
import { NotFoundError, type ProviderKeyRecord } from '../../core/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { signedInAccount } from './owned-records.js';
import { providerKeyListSchema, providerKeyRequestSchema, providerKeySchema } from '../../contract/index.js';

function view(record: ProviderKeyRecord): z.infer<typeof providerKeySchema> {
  return { provider: record.provider, last4: record.last4, created_at: record.createdAt, updated_at: record.updatedAt };
}

/** Provider keys are an account's; a server without accounts uses its environment's. */
function accountOf(context: RouteContext): string {
  return signedInAccount(context, 'Provider keys are kept per account; without accounts the server uses its environment\'s keys (OPENAI_API_KEY, …).');
}

/** An account's model provider keys: sealed at rest, used by its runs, never shown again. */
export const providerKeyRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/settings/provider-keys',
    summary: 'Your stored model provider keys (only their last 4 characters).',
    access: 'settings:read',
    response: providerKeyListSchema,
    handle: async (context) => ({ provider_keys: (await context.runtime.providerKeys.list(accountOf(context))).map(view) }),
  },
  {
    method: 'post',
    path: '/settings/provider-keys',
    summary: 'Store (or replace) your key for a provider, sealed with AES-256-GCM; your runs use it instead of the server\'s.',
    access: 'settings:write',
    body: providerKeyRequestSchema,
    response: providerKeySchema,
    status: 201,
    async handle(context) {
      const body = providerKeyRequestSchema.parse(context.body);
      return view(await context.runtime.providerKeys.set(accountOf(context), body.provider, body.key));
    },
  },
  {
    method: 'post',
    path: '/settings/provider-keys/:provider/remove',
    summary: 'Remove your key for a provider; your runs go back to the server\'s.',
    access: 'settings:write',
    response: providerKeyListSchema,
    async handle(context) {
      const userId = accountOf(context);
      const provider = context.params['provider']!;
      if (!(await context.runtime.providerKeys.remove(userId, provider))) throw new NotFoundError('provider key', provider, 'List yours with GET /api/v1/settings/provider-keys.');
      return { provider_keys: (await context.runtime.providerKeys.list(userId)).map(view) };
    },
  },
];
