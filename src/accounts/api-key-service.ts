import { z } from 'zod';
import { API_SCOPES, type AccountStore, type ApiKeyRecord, type ApiScope, type Principal } from '../core/index.js';
import { AccountPermissionError } from './account-errors.js';
import { newId, newSecret, sameDigest, secretHash } from './token-secrets.js';

/** Service keys read `fk_<id>_<secret>`: the id finds the row, the secret is compared by its hash. */
const keyPattern = /^fk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export const apiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, 'Name the key (what uses it).').max(80),
  scopes: z.array(z.enum(API_SCOPES)).min(1, `Give at least one scope: ${API_SCOPES.join(', ')}.`),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});

export type ApiKeyRequest = z.input<typeof apiKeyRequestSchema>;

export interface CreatedApiKey {
  /** The key itself: shown once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/**
 * Service keys (`X-API-Key`): made by a signed-in account for itself, each with its scopes and an
 * optional expiry; stored as sha256, compared in constant time, revocable. A key acts as its account
 * within its scopes, and never makes keys.
 */
export class ApiKeyService {
  constructor(
    private readonly store: AccountStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(principal: Principal, request: ApiKeyRequest): Promise<CreatedApiKey> {
    const userId = this.keyMaker(principal);
    const parsed = apiKeyRequestSchema.parse(request);
    const id = newId();
    const secret = newSecret();
    const expiresAt = parsed.expires_in_days === undefined ? null : new Date(this.now().getTime() + parsed.expires_in_days * 86_400_000).toISOString();
    const record = await this.store.createApiKey({ id, userId, name: parsed.name, keyHash: secretHash(secret), scopes: [...new Set(parsed.scopes)], expiresAt });
    return { key: `fk_${id}_${secret}`, record };
  }

  /** Keys for an account by id (the CLI acts for any account; the API for the caller's). */
  createFor(userId: string, request: ApiKeyRequest): Promise<CreatedApiKey> {
    return this.create({ via: 'session', userId, role: 'user', scopes: [], credentialId: null }, request);
  }

  list(userId: string): Promise<ApiKeyRecord[]> {
    return this.store.listApiKeys(userId);
  }

  /** Revokes one of `userId`'s keys; false when it has no live key with that id. */
  revoke(userId: string, keyId: string): Promise<boolean> {
    return this.store.revokeApiKey(keyId, userId);
  }

  /** The principal of a live key; undefined for anything else (unknown, altered, revoked, expired). */
  async principalForKey(key: string, role: (userId: string) => Promise<Principal['role'] | undefined>): Promise<Principal | undefined> {
    const match = keyPattern.exec(key.trim());
    if (match === null) return undefined;
    const record = await this.store.getApiKey(match[1]!);
    if (record === undefined || !sameDigest(secretHash(match[2]!), record.keyHash)) return undefined;
    if (record.revokedAt !== null || (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.now().getTime())) return undefined;
    const userRole = await role(record.userId);
    if (userRole === undefined) return undefined;
    await this.store.touchApiKey(record.id);
    return { via: 'api-key', userId: record.userId, role: userRole, scopes: record.scopes as readonly ApiScope[], credentialId: record.id };
  }

  private keyMaker(principal: Principal): string {
    if (principal.via !== 'session' || principal.userId === null) throw new AccountPermissionError('Only a signed-in account makes service keys.', 'Sign in (POST /api/v1/auth/login) and create the key from that session.');
    return principal.userId;
  }
}
