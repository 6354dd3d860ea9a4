import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc } from './contract-fixtures.js';

/** `Store.marketplace`: products pinned at a skill version (republishing moves the pin) and the purchase ledger. */
export function describeMarketplaceContract(context: StoreContractContext): void {
  describe('marketplace', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const product = { id: 'p-1', name: 'order-status', sellerId: 'u-seller', skillId: 'skill-1', skillVersion: 1, description: 'Where an order is.', priceMinor: 250, currency: 'EUR', outputFields: ['status'], published: true } as const;

    it('creates a product, republishes it under the same name with a new pin, and lists published ones only when asked', async () => {
      const created = await store.marketplace.upsertProduct(product);
      expect(created).toEqual({ ...product, createdAt: expect.stringMatching(isoUtc), updatedAt: expect.stringMatching(isoUtc) });
      const moved = await store.marketplace.upsertProduct({ ...product, id: 'p-ignored', skillVersion: 3, priceMinor: 300, outputFields: ['status', 'eta'] });
      expect(moved).toMatchObject({ id: 'p-1', skillVersion: 3, priceMinor: 300, outputFields: ['status', 'eta'], createdAt: created.createdAt });
      await store.marketplace.upsertProduct({ ...product, id: 'p-2', name: 'draft', published: false });
      expect((await store.marketplace.listProducts()).map((listed) => listed.name)).toEqual(['draft', 'order-status']);
      expect((await store.marketplace.listProducts({ publishedOnly: true })).map((listed) => listed.name)).toEqual(['order-status']);
      expect((await store.marketplace.setPublished('order-status', false))?.published).toBe(false);
      expect(await store.marketplace.getProduct('missing')).toBeUndefined();
    });

    it('records a purchase as running, then its outcome; lists one customer\'s, newest first', async () => {
      await store.marketplace.upsertProduct(product);
      const started = await store.marketplace.createPurchase({ id: 'b-1', productId: 'p-1', customerId: 'u-cust', skillVersion: 1, currency: 'EUR' });
      expect(started).toMatchObject({ status: 'running', runId: null, priceMinor: 0, finishedAt: null });
      const finished = await store.marketplace.finishPurchase('b-1', { runId: 'run-1', status: 'completed', answer: 'Shipped.', costUsd: 0.0012, priceMinor: 250 });
      expect(finished).toMatchObject({ runId: 'run-1', status: 'completed', answer: 'Shipped.', costUsd: 0.0012, priceMinor: 250, finishedAt: expect.stringMatching(isoUtc) });
      await store.marketplace.createPurchase({ id: 'b-2', productId: 'p-1', customerId: 'u-cust', skillVersion: 1, currency: 'EUR' });
      await store.marketplace.createPurchase({ id: 'b-3', productId: 'p-1', customerId: 'u-other', skillVersion: 1, currency: 'EUR' });
      expect((await store.marketplace.listPurchases('u-cust')).map((purchase) => purchase.id).sort()).toEqual(['b-1', 'b-2']);
      expect(await store.marketplace.getPurchase('nope')).toBeUndefined();
    });
  });
}
