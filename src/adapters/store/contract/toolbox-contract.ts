import { beforeEach, describe, expect, it } from 'vitest';
import type { Store, ToolboxRecord, ToolboxRecordStatus } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson } from './contract-fixtures.js';

/** `Store.toolbox`: the toolbox of synthesized and added tools, its only source of truth, use counts included. */
export function describeToolboxContract(context: StoreContractContext): void {
  describe('toolbox', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const entry = { name: 'count_links', status: 'promoted', source: 'export default async function run() {}', awkward: awkwardJson };

    function toolboxRecord(name: string, status: ToolboxRecordStatus, updatedAt = '2026-01-02T03:04:05.000Z', uses = 0, owner: string | null = null): ToolboxRecord {
      return { name, status, entry: { ...entry, name, status }, updatedAt, uses, owner };
    }

    it('puts a record and reads it back exactly, its JSON entry intact', async () => {
      const record = toolboxRecord('count_links', 'promoted');

      await store.toolbox.put(record);

      expect(await store.toolbox.get('count_links')).toEqual(record);
      // Byte for byte, key order included: the entry is the toolbox's JSON, not a reinterpretation of it.
      expect(JSON.stringify((await store.toolbox.get('count_links'))?.entry)).toBe(JSON.stringify(record.entry));
      expect(await store.toolbox.list()).toEqual([record]);
      expect(await store.toolbox.get('missing')).toBeUndefined();
    });

    it('replaces the record put under the same name, which keeps its place in the list', async () => {
      await store.toolbox.put(toolboxRecord('b_tool', 'draft'));
      await store.toolbox.put(toolboxRecord('a_tool', 'testing'));
      const replacement = toolboxRecord('b_tool', 'failed', '2026-01-02T03:05:00.000Z');

      await store.toolbox.put(replacement);

      expect(await store.toolbox.list()).toEqual([replacement, toolboxRecord('a_tool', 'testing')]);
    });

    it('lists records in the order names were first put', async () => {
      for (const name of ['c_tool', 'a_tool', 'b_tool']) await store.toolbox.put(toolboxRecord(name, 'promoted'));

      expect((await store.toolbox.list()).map((record) => record.name)).toEqual(['c_tool', 'a_tool', 'b_tool']);
    });

    it('deletes by name, saying whether the record existed', async () => {
      await store.toolbox.put(toolboxRecord('a_tool', 'promoted'));
      await store.toolbox.put(toolboxRecord('b_tool', 'failed'));

      expect(await store.toolbox.delete('a_tool')).toBe(true);
      expect(await store.toolbox.delete('a_tool')).toBe(false);
      expect((await store.toolbox.list()).map((record) => record.name)).toEqual(['b_tool']);
    });

    it('clears every record, and takes new ones afterwards', async () => {
      for (const name of ['a_tool', 'b_tool', 'c_tool']) await store.toolbox.put(toolboxRecord(name, 'promoted'));

      await store.toolbox.clear();

      expect(await store.toolbox.list()).toEqual([]);
      await store.toolbox.put(toolboxRecord('b_tool', 'draft'));
      expect(await store.toolbox.list()).toEqual([toolboxRecord('b_tool', 'draft')]);
    });

    it('takes the use count a new record brings, and keeps the stored count when a record is replaced', async () => {
      await store.toolbox.put(toolboxRecord('imported', 'promoted', '2026-01-02T03:04:05.000Z', 7));
      await store.toolbox.addUse('imported');

      // A replace carries whatever count its writer read earlier: the store's count wins.
      await store.toolbox.put(toolboxRecord('imported', 'failed', '2026-01-02T03:06:00.000Z', 0));

      expect(await store.toolbox.get('imported')).toEqual(toolboxRecord('imported', 'failed', '2026-01-02T03:06:00.000Z', 8));
    });

    it('counts every one of many concurrent uses, interleaved with replaces, and says whether the tool exists', async () => {
      await store.toolbox.put(toolboxRecord('a_tool', 'promoted'));
      await store.toolbox.put(toolboxRecord('b_tool', 'promoted'));

      const counted = await Promise.all([
        ...Array.from({ length: 60 }, (_, index) => store.toolbox.addUse(index % 3 === 0 ? 'b_tool' : 'a_tool')),
        store.toolbox.put(toolboxRecord('a_tool', 'promoted', '2026-01-02T03:07:00.000Z')),
        store.toolbox.addUse('missing'),
      ]);

      expect(counted.slice(0, 60).filter((exists) => exists === true)).toHaveLength(60);
      expect(counted.at(-2)).toBe(true);
      expect(counted.at(-1)).toBe(false);
      expect((await store.toolbox.list()).map((record) => [record.name, record.uses, record.updatedAt])).toEqual([
        ['a_tool', 40, '2026-01-02T03:07:00.000Z'],
        ['b_tool', 20, '2026-01-02T03:04:05.000Z'],
      ]);
      expect(await store.toolbox.get('missing')).toBeUndefined();
    });

    it("keeps each tool's owner, replaces a tool only for its own owner, and says when a name is another owner's", async () => {
      expect(await store.toolbox.put(toolboxRecord('mine', 'draft', '2026-01-02T03:04:05.000Z', 0, 'account-a'))).toBe(true);
      expect(await store.toolbox.put(toolboxRecord('shared', 'promoted'))).toBe(true);

      // Another account, or the installation, cannot take over the name; the owner can replace its own.
      expect(await store.toolbox.put(toolboxRecord('mine', 'promoted', '2026-01-02T03:09:00.000Z', 0, 'account-b'))).toBe(false);
      expect(await store.toolbox.put(toolboxRecord('mine', 'promoted', '2026-01-02T03:09:00.000Z'))).toBe(false);
      expect(await store.toolbox.put(toolboxRecord('shared', 'failed', '2026-01-02T03:09:00.000Z', 0, 'account-a'))).toBe(false);
      expect(await store.toolbox.get('mine')).toEqual(toolboxRecord('mine', 'draft', '2026-01-02T03:04:05.000Z', 0, 'account-a'));
      expect(await store.toolbox.get('shared')).toEqual(toolboxRecord('shared', 'promoted'));
      expect(await store.toolbox.put(toolboxRecord('mine', 'promoted', '2026-01-02T03:10:00.000Z', 0, 'account-a'))).toBe(true);

      // Promotion moves it to the installation's toolbox, keeping its place and count.
      await store.toolbox.addUse('mine');
      expect(await store.toolbox.setOwner('mine', null)).toBe(true);
      expect(await store.toolbox.setOwner('missing', null)).toBe(false);
      expect(await store.toolbox.list()).toEqual([toolboxRecord('mine', 'promoted', '2026-01-02T03:10:00.000Z', 1), toolboxRecord('shared', 'promoted')]);
    });

    it('gives a contested new name to exactly one of two owners putting it at once', async () => {
      const results = await Promise.all(['account-a', 'account-b'].map((owner) => store.toolbox.put(toolboxRecord('contested', 'draft', '2026-01-02T03:04:05.000Z', 0, owner))));

      expect(results.filter((stored) => stored).length).toBe(1);
      expect((await store.toolbox.get('contested'))?.owner).toBe(results[0] ? 'account-a' : 'account-b');
    });

    it('forgets the count of a deleted tool: a tool put again under its name starts from the count it brings', async () => {
      await store.toolbox.put(toolboxRecord('a_tool', 'promoted'));
      await store.toolbox.addUse('a_tool');
      await store.toolbox.delete('a_tool');

      expect(await store.toolbox.addUse('a_tool')).toBe(false);
      await store.toolbox.put(toolboxRecord('a_tool', 'promoted'));
      expect((await store.toolbox.get('a_tool'))?.uses).toBe(0);
    });
  });
}
