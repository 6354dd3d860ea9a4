import { z } from 'zod';
import { accountQuotaViewSchema, apiKeyViewSchema, userViewSchema } from '../../accounts/index.js';

export const usersAddOutputSchema = z.object({ user: userViewSchema }).strict();
export const usersListOutputSchema = z.object({ users: z.array(userViewSchema) }).strict();
export const usersRemoveOutputSchema = z.object({ removed: userViewSchema }).strict();
export const apiKeysCreateOutputSchema = z.object({ key: z.string().describe('The key, shown this once.'), api_key: apiKeyViewSchema }).strict();
export const apiKeysListOutputSchema = z.object({ api_keys: z.array(apiKeyViewSchema) }).strict();
export const secretKeyStatusOutputSchema = z
  .object({
    source: z.enum(['environment', 'file', 'missing']),
    key_id: z.string().nullable(),
    sealed: z.object({ provider_keys: z.number().int().nonnegative(), mcp_servers: z.number().int().nonnegative() }).strict(),
    unreadable: z.number().int().nonnegative(),
  })
  .strict();
export const secretKeyRotateOutputSchema = z
  .object({
    from_key_id: z.string(),
    to_key_id: z.string(),
    resealed: z.object({ provider_keys: z.number().int().nonnegative(), mcp_servers: z.number().int().nonnegative() }).strict(),
    key_file: z.string().nullable(),
    previous_key_file: z.string().nullable(),
  })
  .strict();
export const apiKeysRevokeOutputSchema = z.object({ revoked: apiKeyViewSchema }).strict();
export const accountsQuotaOutputSchema = accountQuotaViewSchema;
export const accountsQuotaClearOutputSchema = accountQuotaViewSchema.extend({ cleared: z.boolean().describe('Whether there was a quota to remove.') }).strict();
