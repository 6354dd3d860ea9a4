import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc, rejectionOf } from './contract-fixtures.js';

const future = () => new Date(Date.now() + 3_600_000).toISOString();
const past = () => new Date(Date.now() - 1_000).toISOString();

/** `Store.accounts`: users, sessions rotated and revoked atomically, service keys. */
export function describeAccountsContract(context: StoreContractContext): void {
  describe('accounts', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('creates users with lower-cased unique emails, finds them, and names the earliest admin', async () => {
      const ada = await store.accounts.createUser({ id: 'u-ada', email: 'Ada@Example.com', passwordHash: '$argon2id$x', role: 'user' });
      await store.accounts.createUser({ id: 'u-bob', email: 'bob@example.com', passwordHash: '$argon2id$y', role: 'admin' });
      await store.accounts.createUser({ id: 'u-cyd', email: 'cyd@example.com', passwordHash: '$argon2id$z', role: 'admin' });

      expect(ada).toEqual({ id: 'u-ada', email: 'ada@example.com', passwordHash: '$argon2id$x', role: 'user', createdAt: expect.stringMatching(isoUtc), disabledAt: null });
      expect(await store.accounts.findUserByEmail('ADA@example.com')).toEqual(ada);
      expect(await store.accounts.getUser('missing')).toBeUndefined();
      expect((await store.accounts.firstAdmin())?.id).toBe('u-bob');
      expect((await store.accounts.listUsers()).map((user) => user.id)).toEqual(['u-ada', 'u-bob', 'u-cyd']);
      expect(await rejectionOf(store.accounts.createUser({ id: 'u-ada2', email: 'ada@EXAMPLE.com', passwordHash: 'h', role: 'user' }))).toBeInstanceOf(DuplicateRecordError);
    });

    it('rotates a session only from its current refresh hash, and never after revocation or expiry', async () => {
      await store.accounts.createUser({ id: 'u-1', email: 'one@example.com', passwordHash: 'h', role: 'user' });
      await store.accounts.createSession({ id: 's-1', userId: 'u-1', refreshHash: 'h0', expiresAt: future() });
      await store.accounts.createSession({ id: 's-old', userId: 'u-1', refreshHash: 'h0', expiresAt: past() });

      expect(await store.accounts.rotateSession('s-1', 'h0', 'h1')).toBe(true);
      expect(await store.accounts.rotateSession('s-1', 'h0', 'h2')).toBe(false);
      expect((await store.accounts.getSession('s-1'))?.refreshHash).toBe('h1');
      expect(await store.accounts.rotateSession('s-old', 'h0', 'h1')).toBe(false);
      expect(await store.accounts.revokeSession('s-1')).toBe(true);
      expect(await store.accounts.revokeSession('s-1')).toBe(false);
      expect(await store.accounts.rotateSession('s-1', 'h1', 'h3')).toBe(false);
      expect((await store.accounts.getSession('s-1'))?.revokedAt).toMatch(isoUtc);
    });

    it('keeps service keys with their scopes, revokes only the owner\'s, and deletes a user with its sessions and keys', async () => {
      await store.accounts.createUser({ id: 'u-1', email: 'one@example.com', passwordHash: 'h', role: 'user' });
      await store.accounts.createUser({ id: 'u-2', email: 'two@example.com', passwordHash: 'h', role: 'user' });
      const key = await store.accounts.createApiKey({ id: 'k-1', userId: 'u-1', name: 'ci', keyHash: 'kh', scopes: ['runs:read', 'skills:run'], expiresAt: null });
      await store.accounts.createSession({ id: 's-1', userId: 'u-1', refreshHash: 'h0', expiresAt: future() });

      expect(await store.accounts.getApiKey('k-1')).toEqual(key);
      expect(key.scopes).toEqual(['runs:read', 'skills:run']);
      expect(await store.accounts.revokeApiKey('k-1', 'u-2')).toBe(false);
      expect(await store.accounts.revokeApiKey('k-1', 'u-1')).toBe(true);
      expect((await store.accounts.listApiKeys('u-1')).map((k) => [k.id, k.revokedAt !== null])).toEqual([['k-1', true]]);
      expect(await store.accounts.deleteUser('u-1')).toBe(true);
      expect(await store.accounts.getApiKey('k-1')).toBeUndefined();
      expect(await store.accounts.getSession('s-1')).toBeUndefined();
      expect(await store.accounts.deleteUser('u-1')).toBe(false);
    });
  });
}
