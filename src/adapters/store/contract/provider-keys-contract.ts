import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc } from './contract-fixtures.js';

/** `Store.providerKeys`: one sealed key per account and provider, replaced in place, resealed together. */
export function describeProviderKeysContract(context: StoreContractContext): void {
  describe('provider keys', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('stores one key per account and provider, replaces it, lists, removes and reseals', async () => {
      const first = await store.providerKeys.put({ userId: 'u-1', provider: 'openai', sealedKey: 'v2.k1.a.b.c', last4: 'abcd' });
      expect(first).toEqual({ userId: 'u-1', provider: 'openai', sealedKey: 'v2.k1.a.b.c', last4: 'abcd', createdAt: expect.stringMatching(isoUtc), updatedAt: expect.stringMatching(isoUtc) });
      const replaced = await store.providerKeys.put({ userId: 'u-1', provider: 'openai', sealedKey: 'v2.k1.d.e.f', last4: 'wxyz' });
      expect(replaced).toMatchObject({ sealedKey: 'v2.k1.d.e.f', last4: 'wxyz', createdAt: first.createdAt });
      await store.providerKeys.put({ userId: 'u-1', provider: 'anthropic', sealedKey: 'v2.k1.g.h.i', last4: '1234' });
      await store.providerKeys.put({ userId: 'u-2', provider: 'openai', sealedKey: 'v2.k1.j.k.l', last4: '5678' });
      expect((await store.providerKeys.list('u-1')).map((key) => key.provider)).toEqual(['anthropic', 'openai']);
      expect(await store.providerKeys.list()).toHaveLength(3);
      await store.providerKeys.reseal([{ userId: 'u-2', provider: 'openai', sealedKey: 'v2.k2.m.n.o' }]);
      expect((await store.providerKeys.get('u-2', 'openai'))?.sealedKey).toBe('v2.k2.m.n.o');
      expect(await store.providerKeys.remove('u-1', 'anthropic')).toBe(true);
      expect(await store.providerKeys.remove('u-1', 'anthropic')).toBe(false);
      expect(await store.providerKeys.get('u-1', 'anthropic')).toBeUndefined();
    });
  });
}
