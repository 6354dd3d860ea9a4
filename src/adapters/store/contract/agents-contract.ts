import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc, rejectionOf } from './contract-fixtures.js';

/** `Store.agents`: immutable versions, an active pointer, edits that race get one version each, runs pinned. */
export function describeAgentsContract(context: StoreContractContext): void {
  describe('agents', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const definition = (prompt: string) => ({ version: 1, name: 'Researcher', slug: 'researcher', system_prompt: prompt });
    const first = { name: 'Researcher', definition: definition('v1'), changedFields: ['(all)'], message: 'created', author: 'ada' };

    it('creates version 1, adds versions that become active, keeps every version as saved, and rolls the pointer back', async () => {
      const created = await store.agents.create('researcher', first, { userId: 'u-ada' });
      expect(created.agent).toEqual({ slug: 'researcher', name: 'Researcher', activeVersion: 1, latestVersion: 1, userId: 'u-ada', createdAt: expect.stringMatching(isoUtc), updatedAt: expect.stringMatching(isoUtc) });
      expect(created.version).toEqual({ slug: 'researcher', version: 1, definition: definition('v1'), changedFields: ['(all)'], message: 'created', author: 'ada', createdAt: expect.stringMatching(isoUtc) });
      expect(await rejectionOf(store.agents.create('researcher', first, { userId: null }))).toBeInstanceOf(DuplicateRecordError);

      const second = await store.agents.addVersion('researcher', { ...first, name: 'Research bot', definition: definition('v2'), changedFields: ['system_prompt', 'name'], message: 'sharper' }, 1);
      expect(second).toMatchObject({ agent: { name: 'Research bot', activeVersion: 2, latestVersion: 2 }, version: { version: 2, changedFields: ['system_prompt', 'name'] } });
      expect(await store.agents.addVersion('researcher', { ...first, definition: definition('stale') }, 1)).toBeUndefined();
      expect(await store.agents.addVersion('nobody', first, 0)).toBeUndefined();

      expect(await store.agents.setActive('researcher', 1)).toMatchObject({ activeVersion: 1, latestVersion: 2 });
      expect(await store.agents.setActive('researcher', 7)).toBeUndefined();
      expect((await store.agents.version('researcher', 1))?.definition).toEqual(definition('v1'));
      expect((await store.agents.versions('researcher')).map((each) => each.version)).toEqual([2, 1]);
      expect((await store.agents.list()).map((each) => each.slug)).toEqual(['researcher']);
    });

    it('gives two edits made from the same version one new version between them', async () => {
      await store.agents.create('racer', { ...first, definition: { ...definition('v1'), slug: 'racer' } }, { userId: null });
      const edits = await Promise.all(['a', 'b', 'c'].map((prompt) => store.agents.addVersion('racer', { ...first, definition: definition(prompt) }, 1)));
      expect(edits.filter((edit) => edit !== undefined)).toHaveLength(1);
      expect((await store.agents.versions('racer')).map((each) => each.version)).toEqual([2, 1]);
    });

    it('removes an agent with its versions; a run keeps the version it was pinned to', async () => {
      await store.agents.create('gone', { ...first, definition: { ...definition('v1'), slug: 'gone' } }, { userId: null });
      const run = await store.runs.create({ id: 'run-pinned', task: 't', model: 'm', conversationId: null, agent: { slug: 'gone', version: 1 } });
      expect(run.agent).toEqual({ slug: 'gone', version: 1 });
      expect(await store.agents.remove('gone')).toBe(true);
      expect(await store.agents.remove('gone')).toBe(false);
      expect(await store.agents.versions('gone')).toEqual([]);
      expect((await store.runs.get('run-pinned'))?.agent).toEqual({ slug: 'gone', version: 1 });
      expect((await store.runs.create({ id: 'run-plain', task: 't', model: 'm', conversationId: null })).agent).toBeNull();
    });
  });
}
