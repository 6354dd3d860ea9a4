import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { openStore } from '../adapters/store/index.js';
import { signAccessToken } from './access-token.js';
import { AccountService } from './account-service.js';
import { ApiKeyService } from './api-key-service.js';

const key = new Uint8Array(randomBytes(32));
const password = 'correct horse battery staple';

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('accounts: sign-in sessions and service keys', () => {
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function services(now: () => Date = () => new Date()) {
    store ??= await openStore({ url: ':memory:' });
    return { accounts: new AccountService({ store: store.accounts, sessionKey: () => key, now }), apiKeys: new ApiKeyService(store.accounts, now) };
  }

  it('signs in with the right password only, and never stores the password', async () => {
    const { accounts } = await services();
    const user = await accounts.addUser({ email: 'Ada@Example.com', password, role: 'admin' });
    expect(user.email).toBe('ada@example.com');
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain(password);
    await expect(accounts.signIn('ada@example.com', 'wrong password!')).rejects.toMatchObject({ name: 'AuthenticationError' });
    await expect(accounts.signIn('nobody@example.com', password)).rejects.toMatchObject({ name: 'AuthenticationError', message: 'The email or password is wrong.' });
    const signedIn = await accounts.signIn('ADA@example.com', password);
    expect(await accounts.principalForAccessToken(signedIn.accessToken)).toMatchObject({ via: 'session', userId: user.id, role: 'admin', credentialId: signedIn.sessionId });
  });

  it('refuses a weak password and a taken email with what to change', async () => {
    const { accounts } = await services();
    await expect(accounts.addUser({ email: 'ada@example.com', password: 'short' })).rejects.toMatchObject({ name: 'ConfigurationError', message: expect.stringContaining('at least 10 characters') });
    await expect(accounts.addUser({ email: 'not an email', password })).rejects.toMatchObject({ name: 'ConfigurationError', message: expect.stringContaining('email') });
    await accounts.addUser({ email: 'ada@example.com', password });
    await expect(accounts.addUser({ email: 'ADA@example.com', password })).rejects.toMatchObject({ name: 'ConfigurationError', message: 'email: ada@example.com already has an account.' });
  });

  it('rotates refresh tokens; replaying an old one revokes the session, and its access token with it', async () => {
    const { accounts } = await services();
    await accounts.addUser({ email: 'ada@example.com', password });
    const first = await accounts.signIn('ada@example.com', password);
    const second = await accounts.refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await accounts.principalForAccessToken(second.accessToken)).toBeDefined();
    await expect(accounts.refresh(first.refreshToken)).rejects.toMatchObject({ message: expect.stringContaining('revoked') });
    expect(await accounts.principalForAccessToken(second.accessToken)).toBeUndefined();
    await expect(accounts.refresh(second.refreshToken)).rejects.toMatchObject({ name: 'AuthenticationError' });
  });

  it('logout ends the session at once', async () => {
    const { accounts } = await services();
    await accounts.addUser({ email: 'ada@example.com', password });
    const signedIn = await accounts.signIn('ada@example.com', password);
    await accounts.signOut(signedIn.sessionId);
    expect(await accounts.principalForAccessToken(signedIn.accessToken)).toBeUndefined();
    await expect(accounts.refresh(signedIn.refreshToken)).rejects.toMatchObject({ name: 'AuthenticationError' });
  });

  it('refuses tampered access tokens: alg none, another key, expired, another user\'s id, a revoked session', async () => {
    const { accounts } = await services();
    const ada = await accounts.addUser({ email: 'ada@example.com', password });
    const bob = await accounts.addUser({ email: 'bob@example.com', password });
    const signedIn = await accounts.signIn('ada@example.com', password);
    const [, payload] = signedIn.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;

    const algNone = `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const otherKey = await signAccessToken(new Uint8Array(randomBytes(32)), { userId: ada.id, sessionId: signedIn.sessionId });
    const expired = await signAccessToken(key, { userId: ada.id, sessionId: signedIn.sessionId }, new Date(Date.now() - 3_600_000));
    const [header, , signature] = signedIn.accessToken.split('.');
    const swappedUser = `${header}.${base64url({ ...claims, sub: bob.id })}.${signature}`;
    // Even correctly signed, a token naming another user than its session's holds nothing.
    const signedForOtherUser = await signAccessToken(key, { userId: bob.id, sessionId: signedIn.sessionId });
    for (const token of [algNone, otherKey, expired, swappedUser, signedForOtherUser, 'not-a-jwt', '']) {
      expect(await accounts.principalForAccessToken(token), token).toBeUndefined();
    }
    await accounts.signOut(signedIn.sessionId);
    expect(await accounts.principalForAccessToken(signedIn.accessToken)).toBeUndefined();
  });

  it('binds the CSRF token to its session', async () => {
    const { accounts } = await services();
    await accounts.addUser({ email: 'ada@example.com', password });
    const one = await accounts.signIn('ada@example.com', password);
    const two = await accounts.signIn('ada@example.com', password);
    expect(accounts.csrfMatches(one.sessionId, one.csrfToken)).toBe(true);
    expect(accounts.csrfMatches(one.sessionId, two.csrfToken)).toBe(false);
    expect(accounts.csrfMatches(one.sessionId, '')).toBe(false);
  });

  it('keeps open sign-up closed unless allowed', async () => {
    const { accounts } = await services();
    await expect(accounts.signUp({ email: 'eve@example.com', password }, false)).rejects.toMatchObject({ name: 'AccountPermissionError' });
    expect(await accounts.listUsers()).toHaveLength(0);
    const signedUp = await accounts.signUp({ email: 'eve@example.com', password }, true);
    expect(signedUp.user.role).toBe('user');
  });

  it('service keys: shown once, stored hashed, scoped, expiring and revocable', async () => {
    let now = new Date('2026-06-01T00:00:00Z');
    const { accounts, apiKeys } = await services(() => now);
    const ada = await accounts.addUser({ email: 'ada@example.com', password });
    const role = async (userId: string) => (await accounts.listUsers()).find((user) => user.id === userId)?.role;
    const created = await apiKeys.createFor(ada.id, { name: 'ci', scopes: ['runs:read'], expires_in_days: 1 });
    expect(created.key).toMatch(/^fk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const stored = await store!.accounts.getApiKey(created.record.id);
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(20));
    expect(await apiKeys.principalForKey(created.key, role)).toMatchObject({ via: 'api-key', userId: ada.id, scopes: ['runs:read'] });
    // One character changed in the secret is another key.
    const altered = created.key.slice(0, -1) + (created.key.endsWith('A') ? 'B' : 'A');
    expect(await apiKeys.principalForKey(altered, role)).toBeUndefined();
    now = new Date('2026-06-02T00:00:01Z');
    expect(await apiKeys.principalForKey(created.key, role)).toBeUndefined();
    now = new Date('2026-06-01T00:00:00Z');
    expect(await apiKeys.revoke(ada.id, created.record.id)).toBe(true);
    expect(await apiKeys.principalForKey(created.key, role)).toBeUndefined();
  });

  it('a key never makes keys; a session does', async () => {
    const { accounts, apiKeys } = await services();
    const ada = await accounts.addUser({ email: 'ada@example.com', password });
    const created = await apiKeys.createFor(ada.id, { name: 'ci', scopes: ['keys:write'] });
    const principal = await apiKeys.principalForKey(created.key, async () => 'user');
    await expect(apiKeys.create(principal!, { name: 'more', scopes: ['runs:write'] })).rejects.toMatchObject({ name: 'AccountPermissionError' });
  });
});
