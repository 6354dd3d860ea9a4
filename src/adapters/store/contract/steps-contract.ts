import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type NewStep, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson, definedValue, isoUtc, newRun, rejectionOf } from './contract-fixtures.js';

/** `Store.steps`: a run's tool calls in index order. */
export function describeStepsContract(context: StoreContractContext): void {
  describe('steps', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('lists a run\'s steps in index order with inputs exactly as recorded', async () => {
      await store.runs.create(newRun('run-1'));
      const steps: NewStep[] = [
        { runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: awkwardJson, output: 'résultats 🔎', error: null, durationMs: 12.5 },
        { runId: 'run-1', index: 1, callId: 'call-1', tool: 'fetch_page', input: null, output: null, error: 'NetworkBlockedError: 10.0.0.1', durationMs: 3 },
        { runId: 'run-1', index: 2, callId: 'call-2', tool: 'final_answer', input: ['a', { b: [1, 2] }], output: 'ok', error: null, durationMs: 0 },
      ];

      for (const step of [steps[1], steps[2], steps[0]]) {
        await store.steps.record(definedValue(step));
      }

      const listed = await store.steps.list('run-1');
      expect(listed).toEqual(steps.map((step) => ({ ...step, createdAt: expect.stringMatching(isoUtc) })));
      expect(JSON.stringify(listed[0]?.input)).toBe(JSON.stringify(awkwardJson));
      expect(listed[1]?.input).toBeNull();
      expect(await store.steps.list('run-unknown')).toEqual([]);
    });

    it('refuses a second step with the same index, and a step of an unknown run', async () => {
      await store.runs.create(newRun('run-1'));
      const step: NewStep = { runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: { q: 'x' }, output: 'first', error: null, durationMs: 1 };
      await store.steps.record(step);

      const duplicate = await rejectionOf(store.steps.record({ ...step, callId: 'call-other', output: 'second' }));
      const orphan = await rejectionOf(store.steps.record({ ...step, runId: 'run-unknown' }));

      expect(duplicate).toBeInstanceOf(DuplicateRecordError);
      expect(duplicate).toMatchObject({ kind: 'step', key: { runId: 'run-1', index: 0 } });
      expect(orphan).toBeInstanceOf(NotFoundError);
      expect(orphan).toMatchObject({ kind: 'run', id: 'run-unknown' });
      expect((await store.steps.list('run-1')).map((listed) => listed.output)).toEqual(['first']);
      expect(await store.steps.list('run-unknown')).toEqual([]);
    });

    it('records a batch of steps larger than one statement in index order', async () => {
      await store.runs.create(newRun('run-1'));
      await store.steps.recordAll(
        Array.from({ length: 150 }, (_, index) => ({ runId: 'run-1', index, callId: `call-${index}`, tool: 'web_search', input: { index }, output: 'ok', error: null, durationMs: 1 })),
      );
      const steps = await store.steps.list('run-1');
      expect(steps.map((step) => step.index)).toEqual(Array.from({ length: 150 }, (_, index) => index));
      expect(steps[149]!.input).toEqual({ index: 149 });
    });
  });
}
