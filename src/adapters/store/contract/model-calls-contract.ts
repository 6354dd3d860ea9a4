import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { modelCall, newRun } from './contract-fixtures.js';

/** `Store.modelCalls`: every model call with its price, kept unknown when unknown. */
export function describeModelCallsContract(context: StoreContractContext): void {
  describe('model calls', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('lists a run\'s calls in the order recorded, with an unknown price kept as null', async () => {
      const unpriced = modelCall({ runId: 'run-1', costUsd: null, inputHash: 'hash-a' });
      const free = modelCall({ runId: 'run-1', costUsd: 0, inputHash: 'hash-b' });
      const priced = modelCall({ runId: 'run-1', costUsd: 0.004215, latencyMs: 812.75, inputHash: 'hash-c' });

      for (const call of [unpriced, modelCall({ runId: 'run-2' }), free, modelCall({ runId: null, purpose: 'utility' }), priced]) {
        await store.modelCalls.record(call);
      }

      const listed = await store.modelCalls.list('run-1');
      expect(listed).toEqual([unpriced, free, priced]);
      expect(listed[0]?.costUsd).toBeNull();
      expect(listed[1]?.costUsd).toBe(0);
      expect(await store.modelCalls.list('run-2')).toHaveLength(1);
      expect(await store.modelCalls.list('run-unknown')).toEqual([]);
    });

    it('records a batch of model calls larger than one statement in order, unknown prices kept', async () => {
      await store.runs.create(newRun('run-1'));
      await store.modelCalls.recordAll(Array.from({ length: 120 }, (_, index) => modelCall({ runId: 'run-1', inputTokens: index, costUsd: null })));
      const calls = await store.modelCalls.list('run-1');
      expect(calls.map((call) => call.inputTokens)).toEqual(Array.from({ length: 120 }, (_, index) => index));
      expect(calls.every((call) => call.costUsd === null)).toBe(true);
    });
  });
}
