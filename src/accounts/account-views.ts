import { z } from 'zod';
import { API_SCOPES, type ApiKeyRecord, type UserRecord } from '../core/index.js';

/** An account as the CLI's --json and the API show it: never its password hash. */
export const userViewSchema = z
  .object({ user_id: z.string(), email: z.string(), role: z.enum(['admin', 'user']), created_at: z.string() })
  .strict();

/** A service key as shown after it was made: never the key nor its hash. */
export const apiKeyViewSchema = z
  .object({
    key_id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(API_SCOPES)),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .strict();

export type UserView = z.infer<typeof userViewSchema>;
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

export function userView(user: UserRecord): UserView {
  return { user_id: user.id, email: user.email, role: user.role, created_at: user.createdAt };
}

export function apiKeyView(key: ApiKeyRecord): ApiKeyView {
  return { key_id: key.id, name: key.name, scopes: [...key.scopes], created_at: key.createdAt, expires_at: key.expiresAt, revoked_at: key.revokedAt, last_used_at: key.lastUsedAt };
}
