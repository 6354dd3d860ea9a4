/**
 * What a service API key may do, one scope per kind of act. A signed-in person (or the operator of a
 * single-user server) holds every scope; a key holds the ones it was created with.
 */
export const API_SCOPES = [
  'runs:read',
  'runs:write',
  'conversations:read',
  'conversations:write',
  'approvals:write',
  'skills:read',
  'skills:write',
  'skills:run',
  'tools:read',
  'tools:write',
  'mcp:read',
  'mcp:write',
  'settings:read',
  'settings:write',
  'usage:read',
  'marketplace:read',
  'marketplace:run',
  'marketplace:write',
  'keys:write',
  'policy:write',
  'agents:write',
] as const;

export type ApiScope = (typeof API_SCOPES)[number];

export type UserRole = 'admin' | 'user';

/**
 * Who a request acts as.
 * - `operator`: a server without accounts (auth `none` on loopback, or the admin password); the one
 *   person who runs it, owner of everything stored (`userId` null).
 * - `session`: a signed-in account (a JWT access token, from its cookie or a bearer header).
 * - `api-key`: a service key of an account, limited to its scopes.
 */
export interface Principal {
  readonly via: 'operator' | 'session' | 'api-key';
  /** The account; null for the operator of a server without accounts. */
  readonly userId: string | null;
  readonly role: UserRole;
  readonly scopes: readonly ApiScope[];
  /** The session (`session`) or key (`api-key`) id; null for the operator. */
  readonly credentialId: string | null;
}

/** The operator of a server without accounts: every scope, owner of every record. */
export const OPERATOR: Principal = { via: 'operator', userId: null, role: 'admin', scopes: API_SCOPES, credentialId: null };

/**
 * Whether `principal` owns a record whose owner is `ownerId`. Records stored without an owner (before
 * accounts were enabled, or by the CLI) belong to the installation's first admin, `firstAdminId`. The
 * operator of a server without accounts owns everything; an account owns only its own records, admins
 * included: an admin manages accounts, not other people's work.
 */
export function ownsRecord(principal: Principal, ownerId: string | null, firstAdminId: string | null): boolean {
  if (principal.via === 'operator') return true;
  const owner = ownerId ?? firstAdminId;
  return owner !== null && owner === principal.userId;
}
