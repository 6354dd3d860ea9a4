import { beforeEach, describe, expect, it } from 'vitest';
import type { ClaimedSlot, Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc, rejectionOf } from './contract-fixtures.js';

const request = { kind: 'task', task: 'summarise the day' };

/** `Store.schedules`: due slots claimed once each, however many claim at once. */
export function describeSchedulesContract(context: StoreContractContext): void {
  describe('schedules', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('creates a schedule, refuses a second of the same name, lists, disables and deletes', async () => {
      const created = await store.schedules.create({ id: 's1', name: 'daily', everyMs: 60_000, request, firstDueMs: 1_000_000 });
      expect(created).toEqual({ id: 's1', name: 'daily', everyMs: 60_000, request, nextDueMs: 1_000_000, lastFiredMs: null, enabled: true, createdAt: expect.stringMatching(isoUtc) });
      expect(await rejectionOf(store.schedules.create({ id: 's2', name: 'daily', everyMs: 60_000, request, firstDueMs: 0 }))).toBeInstanceOf(DuplicateRecordError);
      await store.schedules.create({ id: 's3', name: 'an-hourly', everyMs: 3_600_000, request, firstDueMs: 0 });
      expect((await store.schedules.list()).map((schedule) => schedule.name)).toEqual(['an-hourly', 'daily']);
      expect(await store.schedules.setEnabled('s1', false)).toMatchObject({ enabled: false });
      expect(await store.schedules.get('s1')).toMatchObject({ enabled: false, request });
      expect(await store.schedules.setEnabled('missing', true)).toBeUndefined();
      expect(await store.schedules.delete('s3')).toBe(true);
      expect(await store.schedules.delete('s3')).toBe(false);
      expect(await store.schedules.get('s3')).toBeUndefined();
    });

    it('claims what is due, the soonest first, moving each past now by whole intervals; missed slots fire once, as the latest', async () => {
      await store.schedules.create({ id: 'a', name: 'a', everyMs: 10_000, request, firstDueMs: 100_000 });
      await store.schedules.create({ id: 'b', name: 'b', everyMs: 1_000, request, firstDueMs: 95_000 });
      await store.schedules.create({ id: 'later', name: 'later', everyMs: 1_000, request, firstDueMs: 200_000 });
      await store.schedules.create({ id: 'off', name: 'off', everyMs: 1_000, request, firstDueMs: 0 });
      await store.schedules.setEnabled('off', false);

      const claimed = await store.schedules.claimDue(100_500, 10);

      // b was due at 95,000 and missed 96,000…100,000: it fires once, for 100,000, and is next due at 101,000.
      expect(claimed.map(({ schedule, slotMs }) => [schedule.id, slotMs, schedule.nextDueMs])).toEqual([
        ['a', 100_000, 110_000],
        ['b', 100_000, 101_000],
      ]);
      expect(await store.schedules.claimDue(100_999, 10)).toEqual([]);
      expect((await store.schedules.claimDue(101_000, 10)).map(({ schedule, slotMs }) => [schedule.id, slotMs])).toEqual([['b', 101_000]]);
      expect((await store.schedules.get('a'))?.lastFiredMs).toBe(100_000);
      expect(await store.schedules.claimDue(1_000_000, 0)).toEqual([]);
    });

    it('never gives one slot to two claimers, from one store or two on the same database', async () => {
      for (let index = 0; index < 20; index += 1) await store.schedules.create({ id: `s${index}`, name: `s${index}`, everyMs: 1_000, request, firstDueMs: 0 });
      const subject = context.subject();
      const other = subject.reopen === undefined ? store : await subject.reopen();
      const claimers = [store, other, store, other, store, other];

      const rounds: ClaimedSlot[][] = [];
      for (const nowMs of [5_000, 5_500, 7_200]) rounds.push(...(await Promise.all(claimers.map((claimer, index) => claimer.schedules.claimDue(nowMs, 4 + index)))));

      const fired = rounds.flat().map(({ schedule, slotMs }) => `${schedule.id}@${slotMs}`);
      expect(new Set(fired).size, 'slots fired twice').toBe(fired.length);
      // Every schedule fired for 5,000 and for 7,000 (5,500 had nothing due), all of them.
      expect(fired.sort()).toEqual(Array.from({ length: 20 }, (_, index) => [`s${index}@5000`, `s${index}@7000`]).flat().sort());
    });
  });
}
