import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson, definedValue, modelCall, newRun, runStartEvent, textMessage, toolCallStartEvent } from './contract-fixtures.js';

/** What a durable store keeps once it is closed and its database reopened. */
export function describeDurabilityContract(context: StoreContractContext): void {
  describe('durability', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('keeps everything written after the store is closed and the database reopened', async () => {
      await store.runs.create(newRun('run-1'));
      await store.runs.update('run-1', { status: 'completed', haltReason: 'final_answer', answer: 'forty-two', costUsd: null });
      await store.events.append(runStartEvent('run-1', 0));
      await store.events.append(toolCallStartEvent('run-1', 1, awkwardJson));
      await store.steps.record({ runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: awkwardJson, output: 'ok', error: null, durationMs: 4 });
      await store.conversations.create({ id: 'conversation-1', title: 'kept' });
      await store.conversations.appendMessages('conversation-1', [textMessage('user', 'question'), textMessage('assistant', 'answer')]);
      await store.modelCalls.record(modelCall({ runId: 'run-1', costUsd: null }));
      const before = await snapshot(store);
      await store.close();

      const reopened = await definedValue(context.subject().reopen)();

      const after = await snapshot(reopened);
      expect(after).toEqual(before);
      expect(after.runs).toHaveLength(1);
      expect(after.events).toHaveLength(2);
      expect(after.steps).toHaveLength(1);
      expect(after.messages).toHaveLength(2);
      expect(after.modelCalls).toHaveLength(1);
      expect(after.runs[0]?.costUsd).toBeNull();
    });

    it('keeps the toolbox, each tool with its status and use count, after the store is closed and the database reopened', async () => {
      const promoted = { name: 'count_links', status: 'promoted', entry: { name: 'count_links', source: 'export default async function run() {}', awkward: awkwardJson }, updatedAt: '2026-01-02T03:04:05.000Z', uses: 2, owner: null } as const;
      await store.toolbox.put(promoted);
      await store.toolbox.put({ ...promoted, name: 'extract_dates', status: 'failed', entry: { name: 'extract_dates' }, uses: 0, owner: 'account-7' });
      await Promise.all([store.toolbox.addUse('count_links'), store.toolbox.addUse('count_links')]);
      await store.close();

      const reopened = await definedValue(context.subject().reopen)();

      expect(await reopened.toolbox.list()).toEqual([
        { ...promoted, uses: 4 },
        { ...promoted, name: 'extract_dates', status: 'failed', entry: { name: 'extract_dates' }, uses: 0, owner: 'account-7' },
      ]);
    });
  });
}

/** Everything the durability test wrote, read back through the interface. */
async function snapshot(store: Store) {
  return {
    runs: await store.runs.list(),
    events: await store.events.list('run-1'),
    steps: await store.steps.list('run-1'),
    conversations: await store.conversations.list(),
    messages: await store.conversations.listMessages('conversation-1'),
    modelCalls: await store.modelCalls.list('run-1'),
  };
}
