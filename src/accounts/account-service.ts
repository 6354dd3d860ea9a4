import { randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { API_SCOPES, ConfigurationError, type AccountStore, type Principal, type UserRecord, type UserRole } from '../core/index.js';
import { ACCESS_TOKEN_SECONDS, csrfTokenFor, signAccessToken, verifyAccessToken } from './access-token.js';
import { AccountPermissionError, AuthenticationError } from './account-errors.js';
import { hashPassword, passwordSchema, verifyPassword } from './password-hashing.js';
import { newId, newSecret, sameDigest, secretHash } from './token-secrets.js';

/** How long a sign-in lasts without signing in again (its refresh token rotates within it). */
export const SESSION_DAYS = 14;

export const emailSchema = z.string().trim().toLowerCase().email('Give an email address, like ada@example.com.').max(254);

export const newUserSchema = z.object({ email: emailSchema, password: passwordSchema, role: z.enum(['admin', 'user']).default('user') });

/** What a sign-in (or a refresh) hands the client. The refresh token is shown here only. */
export interface SignedIn {
  readonly user: UserRecord;
  readonly sessionId: string;
  readonly accessToken: string;
  readonly accessExpiresInSeconds: number;
  readonly refreshToken: string;
  readonly refreshExpiresAt: string;
  readonly csrfToken: string;
}

export interface AccountServiceOptions {
  readonly store: AccountStore;
  /** Signs access and CSRF tokens. */
  readonly sessionKey: () => Uint8Array;
  readonly now?: () => Date;
}

/**
 * People's accounts: users with argon2id passwords, sign-in sessions with short-lived JWT access tokens
 * and rotating refresh tokens (`<session>.<secret>`; a replayed old refresh token revokes its session),
 * logout. Access tokens are checked against their session on every request, so logout and revocation
 * take effect at once.
 */
export class AccountService {
  private readonly now: () => Date;

  constructor(private readonly options: AccountServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Whether any account exists (a server then runs with accounts by default). */
  async hasUsers(): Promise<boolean> {
    return (await this.options.store.listUsers()).length > 0;
  }

  /** Throws `ConfigurationError` naming the field for a malformed email, a weak password or a taken email. */
  async addUser(input: { email: string; password: string; role?: UserRole }): Promise<UserRecord> {
    const checked = newUserSchema.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new ConfigurationError(String(issue.path[0] ?? 'account'), issue.message, issue.path[0] === 'password' ? 'Choose a longer password (a few words make a good one).' : undefined);
    }
    const parsed = checked.data;
    if ((await this.options.store.findUserByEmail(parsed.email)) !== undefined) throw new ConfigurationError('email', `${parsed.email} already has an account.`, 'List accounts with forge users list, or sign in with that one.');
    return this.options.store.createUser({ id: randomUUID(), email: parsed.email, passwordHash: await hashPassword(parsed.password), role: parsed.role });
  }

  listUsers(): Promise<UserRecord[]> {
    return this.options.store.listUsers();
  }

  /** The role of a live account; undefined for a removed or disabled one. */
  async roleOf(userId: string): Promise<UserRole | undefined> {
    const user = await this.options.store.getUser(userId);
    return user === undefined || user.disabledAt !== null ? undefined : user.role;
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    return this.options.store.getUser(userId);
  }

  async firstAdminId(): Promise<string | null> {
    return (await this.options.store.firstAdmin())?.id ?? null;
  }

  async removeUser(email: string): Promise<UserRecord> {
    const user = await this.requireUser(email);
    const admins = (await this.options.store.listUsers()).filter((candidate) => candidate.role === 'admin');
    if (user.role === 'admin' && admins.length === 1) throw new ConfigurationError('email', `${user.email} is the only admin; removing it would leave nobody to manage accounts.`, 'Add another admin first (forge users add <email> --admin).');
    await this.options.store.deleteUser(user.id);
    return user;
  }

  async requireUser(email: string): Promise<UserRecord> {
    const user = await this.options.store.findUserByEmail(emailSchema.parse(email));
    if (user === undefined) throw new ConfigurationError('email', `no account has the email ${email}.`, 'List accounts with forge users list.');
    return user;
  }

  /** Signs in with email and password; the same refusal for an unknown email and a wrong password. */
  async signIn(email: string, password: string): Promise<SignedIn> {
    const parsed = emailSchema.safeParse(email);
    const user = parsed.success ? await this.options.store.findUserByEmail(parsed.data) : undefined;
    const matches = await verifyPassword(user?.passwordHash, password);
    if (user === undefined || !matches || user.disabledAt !== null) throw new AuthenticationError();
    const refreshSecret = newSecret();
    const sessionId = newId();
    const expiresAt = new Date(this.now().getTime() + SESSION_DAYS * 86_400_000).toISOString();
    await this.options.store.createSession({ id: sessionId, userId: user.id, refreshHash: secretHash(refreshSecret), expiresAt });
    return this.signedIn(user, sessionId, refreshSecret, expiresAt);
  }

  /** Open sign-up (off unless the server allows it): a new `user` account, signed in. */
  async signUp(input: { email: string; password: string }, allowed: boolean): Promise<SignedIn> {
    if (!allowed) throw new AccountPermissionError('Sign-up is closed on this server.', 'Ask its admin for an account (forge users add), or start the server with --open-signup.');
    const user = await this.addUser({ ...input, role: 'user' });
    return this.signIn(user.email, input.password);
  }

  /**
   * Trades a refresh token for a new pair. The old token stops working; presenting it again (a stolen
   * copy, or a replay) revokes the whole session.
   */
  async refresh(refreshToken: string): Promise<SignedIn> {
    const [sessionId, secret, ...rest] = refreshToken.split('.');
    if (sessionId === undefined || secret === undefined || rest.length > 0) throw invalidRefresh();
    const session = await this.options.store.getSession(sessionId);
    if (session === undefined || session.revokedAt !== null || Date.parse(session.expiresAt) <= this.now().getTime()) throw invalidRefresh();
    const presented = secretHash(secret);
    if (!sameDigest(presented, session.refreshHash)) {
      await this.options.store.revokeSession(session.id);
      throw new AuthenticationError('This refresh token was used already; the session is revoked for safety.', 'Sign in again.');
    }
    const nextSecret = newSecret();
    if (!(await this.options.store.rotateSession(session.id, presented, secretHash(nextSecret)))) {
      await this.options.store.revokeSession(session.id);
      throw new AuthenticationError('This refresh token was used already; the session is revoked for safety.', 'Sign in again.');
    }
    const user = await this.options.store.getUser(session.userId);
    if (user === undefined || user.disabledAt !== null) throw invalidRefresh();
    return this.signedIn(user, session.id, nextSecret, session.expiresAt);
  }

  /** Ends a session: its access and refresh tokens stop working at once. */
  async signOut(sessionId: string): Promise<void> {
    await this.options.store.revokeSession(sessionId);
  }

  /** The principal of a live session's access token; undefined when the token or its session does not hold. */
  async principalForAccessToken(token: string): Promise<Principal | undefined> {
    const claims = await verifyAccessToken(this.options.sessionKey(), token);
    if (claims === undefined) return undefined;
    const session = await this.options.store.getSession(claims.sessionId);
    if (session === undefined || session.userId !== claims.userId || session.revokedAt !== null || Date.parse(session.expiresAt) <= this.now().getTime()) return undefined;
    const user = await this.options.store.getUser(claims.userId);
    if (user === undefined || user.disabledAt !== null) return undefined;
    return { via: 'session', userId: user.id, role: user.role, scopes: API_SCOPES, credentialId: session.id };
  }

  /** Whether `token` is the CSRF token of `sessionId`. */
  csrfMatches(sessionId: string, token: string): boolean {
    const expected = Buffer.from(csrfTokenFor(this.options.sessionKey(), sessionId));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private async signedIn(user: UserRecord, sessionId: string, refreshSecret: string, refreshExpiresAt: string): Promise<SignedIn> {
    const key = this.options.sessionKey();
    return {
      user,
      sessionId,
      accessToken: await signAccessToken(key, { userId: user.id, sessionId }, this.now()),
      accessExpiresInSeconds: ACCESS_TOKEN_SECONDS,
      refreshToken: `${sessionId}.${refreshSecret}`,
      refreshExpiresAt,
      csrfToken: csrfTokenFor(key, sessionId),
    };
  }
}

function invalidRefresh(): AuthenticationError {
  return new AuthenticationError('The refresh token is not valid (expired, revoked or malformed).', 'Sign in again.');
}
