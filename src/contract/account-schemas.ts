import { z } from 'zod';
import { apiKeyViewSchema, userViewSchema } from '../accounts/account-views.js';
import { API_SCOPES } from '../core/index.js';

/** The bodies of the account routes (`/api/v1/auth/*`, `/api/v1/api-keys`). Secrets appear only in the answers that hand them out. */

export const loginRequestSchema = z
  .object({
    email: z.string().min(1).max(254).describe('The account\'s email.'),
    password: z.string().min(1).max(256),
  })
  .strict();

export const signupRequestSchema = z
  .object({
    email: z.string().min(1).max(254),
    password: z.string().min(10, 'A password needs at least 10 characters.').max(256),
  })
  .strict();

export const refreshRequestSchema = z
  .object({ refresh_token: z.string().min(1).max(200).optional().describe('Default: the forge_refresh cookie.') })
  .strict();

export const userSchema = userViewSchema;

export const signedInSchema = z
  .object({
    user: userSchema,
    token_type: z.literal('Bearer'),
    access_token: z.string().describe('Send as Authorization: Bearer <token>; also set as the HttpOnly forge_access cookie.'),
    expires_in: z.number().int().positive().describe('Seconds the access token holds.'),
    refresh_token: z.string().describe('Trade it for a new pair at POST /auth/refresh; it works once. Also set as the HttpOnly forge_refresh cookie.'),
    refresh_expires_at: z.string(),
    csrf_token: z.string().describe('Send as X-CSRF-Token with every write a cookie authenticates; also set as the forge_csrf cookie.'),
  })
  .strict();

export const userListSchema = z.object({ users: z.array(userSchema) }).strict();

export const signedOutSchema = z.object({ signed_out: z.boolean().describe('Whether a session was ended.') }).strict();

export const meSchema = z
  .object({
    via: z.enum(['operator', 'session', 'api-key']),
    user: userSchema.nullable().describe('Null for the operator of a server without accounts.'),
    scopes: z.array(z.enum(API_SCOPES)),
  })
  .strict();

export const sessionSchema = z
  .object({
    auth: z.enum(['none', 'password', 'accounts']),
    open_signup: z.boolean(),
    signed_in: z.boolean(),
    via: z.enum(['operator', 'session', 'api-key']).nullable(),
    user: userSchema.nullable(),
    scopes: z.array(z.enum(API_SCOPES)),
  })
  .strict();

export const apiKeyCreateRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(80).describe('What uses the key.'),
    scopes: z.array(z.enum(API_SCOPES)).min(1),
    expires_in_days: z.number().int().min(1).max(3650).optional(),
  })
  .strict();

export const apiKeySchema = apiKeyViewSchema;

export const createdApiKeySchema = z
  .object({ key: z.string().describe('The key itself, shown this once: send it as X-API-Key.'), api_key: apiKeySchema })
  .strict();

export const apiKeyListSchema = z.object({ api_keys: z.array(apiKeySchema) }).strict();

export type SignedInBody = z.infer<typeof signedInSchema>;
export type CreatedApiKeyBody = z.infer<typeof createdApiKeySchema>;
export type MeBody = z.infer<typeof meSchema>;
