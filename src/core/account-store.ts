import type { ApiScope, UserRole } from './principal.js';

export interface UserRecord {
  readonly id: string;
  /** Lower-cased; unique. */
  readonly email: string;
  /** argon2id, in its PHC string form. */
  readonly passwordHash: string;
  readonly role: UserRole;
  readonly createdAt: string;
  readonly disabledAt: string | null;
}

/** One sign-in. Its refresh token is never stored: only the sha256 of the current one, replaced at every refresh. */
export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  readonly refreshHash: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly revokedAt: string | null;
  readonly refreshedAt: string | null;
}

/** A service key of an account. The key itself is shown once when made; only its sha256 is kept. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly keyHash: string;
  readonly scopes: readonly ApiScope[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
}

/** Accounts: users, their sessions and their service keys. */
export interface AccountStore {
  /** Throws `DuplicateRecordError` when the email is taken. */
  createUser(user: Pick<UserRecord, 'id' | 'email' | 'passwordHash' | 'role'>): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | undefined>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  /** Oldest first. */
  listUsers(): Promise<UserRecord[]>;
  /** The earliest admin: owner of every record stored without an account. */
  firstAdmin(): Promise<UserRecord | undefined>;
  /** Deletes the user with its sessions and keys; returns whether it existed. */
  deleteUser(id: string): Promise<boolean>;

  createSession(session: Pick<SessionRecord, 'id' | 'userId' | 'refreshHash' | 'expiresAt'>): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /**
   * Replaces the refresh hash of a live session, atomically, only when it still is `expectedHash`:
   * true for the one caller whose token was current; false when it was rotated already (a replayed
   * token), revoked or expired.
   */
  rotateSession(id: string, expectedHash: string, nextHash: string): Promise<boolean>;
  /** Revokes one session (logout, a replayed refresh token); returns whether it was live. */
  revokeSession(id: string): Promise<boolean>;

  createApiKey(key: Pick<ApiKeyRecord, 'id' | 'userId' | 'name' | 'keyHash' | 'scopes' | 'expiresAt'>): Promise<ApiKeyRecord>;
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** One account's keys, oldest first, revoked ones included. */
  listApiKeys(userId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key of `userId`; returns whether a live key of theirs was revoked. */
  revokeApiKey(id: string, userId: string): Promise<boolean>;
  touchApiKey(id: string): Promise<void>;
}
