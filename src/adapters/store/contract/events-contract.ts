import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson, definedValue, newRun, rejectionOf, runStartEvent, textEvent, toolCallStartEvent } from './contract-fixtures.js';

/** `Store.events`: a run's events in `seq` order, exactly as appended, one or many at a time. */
export function describeEventsContract(context: StoreContractContext): void {
  describe('appending many events', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('appends a batch larger than one statement in seq order', async () => {
      await store.runs.create(newRun('run-1'));
      const events = Array.from({ length: 250 }, (_, seq) => toolCallStartEvent('run-1', seq, { seq }));
      await store.events.appendAll(events);
      expect((await store.events.list('run-1')).map((event) => event.seq)).toEqual(events.map((event) => event.seq));
    });

    it('refuses a duplicate seq in a batch and writes none of that batch', async () => {
      await store.runs.create(newRun('run-1'));
      await store.events.append(runStartEvent('run-1', 0));
      await expect(store.events.appendAll([toolCallStartEvent('run-1', 1, {}), runStartEvent('run-1', 0)])).rejects.toBeInstanceOf(DuplicateRecordError);
      expect(await store.events.list('run-1')).toHaveLength(1);
    });
  });

  describe('events', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('lists a run\'s events in seq order, exactly as appended', async () => {
      await store.runs.create(newRun('run-1'));
      const events = [runStartEvent('run-1', 0), toolCallStartEvent('run-1', 1, awkwardJson), textEvent('run-1', 2, 'done ✅')];

      for (const event of [events[2], events[0], events[1]]) {
        await store.events.append(definedValue(event));
      }

      const listed = await store.events.list('run-1');
      expect(listed).toEqual(events);
      expect(JSON.stringify(listed)).toBe(JSON.stringify(events));
    });

    it('keeps each run\'s events apart', async () => {
      await store.runs.create(newRun('run-1'));
      await store.runs.create(newRun('run-2'));
      await store.events.append(textEvent('run-1', 0, 'first run'));
      await store.events.append(textEvent('run-2', 0, 'second run'));
      await store.events.append(textEvent('run-2', 1, 'second run again'));

      expect(await store.events.list('run-1')).toEqual([textEvent('run-1', 0, 'first run')]);
      expect((await store.events.list('run-2')).map((event) => event.seq)).toEqual([0, 1]);
      expect(await store.events.list('run-unknown')).toEqual([]);
    });

    it('refuses a second event with the same run and seq and keeps the first', async () => {
      await store.runs.create(newRun('run-1'));
      await store.events.append(textEvent('run-1', 0, 'original'));

      const error = await rejectionOf(store.events.append(textEvent('run-1', 0, 'impostor')));

      expect(error).toBeInstanceOf(DuplicateRecordError);
      expect(error).toMatchObject({ kind: 'event', key: { runId: 'run-1', seq: 0 } });
      expect(await store.events.list('run-1')).toEqual([textEvent('run-1', 0, 'original')]);
    });

    it('refuses an event of a run that was never created', async () => {
      const error = await rejectionOf(store.events.append(textEvent('run-unknown', 0, 'orphan')));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ kind: 'run', id: 'run-unknown' });
      expect(await store.events.list('run-unknown')).toEqual([]);
    });
  });
}
