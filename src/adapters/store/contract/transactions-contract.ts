import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { modelCall, newRun, runStartEvent, toolCallStartEvent } from './contract-fixtures.js';

/** `Store.transaction`: a run's writes across runs, events, steps and model calls commit together or not at all. */
export function describeTransactionsContract(context: StoreContractContext): void {
  describe('transactions', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('commits every write of a transaction together', async () => {
      await store.runs.create(newRun('run-1'));
      await store.transaction(async (writes) => {
        await writes.events.append(runStartEvent('run-1', 0));
        await writes.steps.record({ runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: { query: 'q' }, output: 'ok', error: null, durationMs: 3 });
        await writes.modelCalls.record(modelCall({ runId: 'run-1' }));
        await writes.runs.update('run-1', { status: 'completed', llmCalls: 1 });
      });
      expect(await store.events.list('run-1')).toHaveLength(1);
      expect(await store.steps.list('run-1')).toHaveLength(1);
      expect(await store.modelCalls.list('run-1')).toHaveLength(1);
      expect(await store.runs.get('run-1')).toMatchObject({ status: 'completed', llmCalls: 1 });
    });

    it('writes nothing when any write of the transaction fails, and rethrows the failure', async () => {
      await store.runs.create(newRun('run-1'));
      await store.events.append(runStartEvent('run-1', 0));
      await expect(
        store.transaction(async (writes) => {
          await writes.events.append(toolCallStartEvent('run-1', 1, { a: 1 }));
          await writes.modelCalls.record(modelCall({ runId: 'run-1' }));
          await writes.events.append(runStartEvent('run-1', 0));
        }),
      ).rejects.toBeInstanceOf(DuplicateRecordError);
      expect(await store.events.list('run-1')).toHaveLength(1);
      expect(await store.modelCalls.list('run-1')).toEqual([]);
      // The store is still usable after the rollback.
      await store.events.append(toolCallStartEvent('run-1', 1, { a: 1 }));
      expect(await store.events.list('run-1')).toHaveLength(2);
    });

    it('runs many concurrent transactions, each yielding mid-way, alongside plain writes, and loses none', async () => {
      const ids = Array.from({ length: 12 }, (_, index) => `run-${index}`);
      await Promise.all(ids.map((id) => store.runs.create(newRun(id))));
      // Each transaction yields to the event loop between its writes, as the run recorder's do, while
      // other runs write outside any transaction: one process's runs must never lock each other out.
      await Promise.all(
        ids.flatMap((id) => [
          store.transaction(async (writes) => {
            await writes.events.append(runStartEvent(id, 0));
            await new Promise((resolve) => setTimeout(resolve, 5));
            await writes.runs.update(id, { llmCalls: 1 });
          }),
          store.runs.create(newRun(`${id}-side`)),
        ]),
      );
      for (const id of ids) {
        expect(await store.events.list(id)).toHaveLength(1);
        expect(await store.runs.get(id)).toMatchObject({ llmCalls: 1 });
        expect(await store.runs.get(`${id}-side`)).toMatchObject({ status: 'running' });
      }
    });
  });
}
