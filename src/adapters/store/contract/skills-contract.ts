import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson, isoUtc, rejectionOf } from './contract-fixtures.js';

/** `Store.skills`: skills with immutable versions and their lineage. */
export function describeSkillsContract(context: StoreContractContext): void {
  describe('skills', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const document = { version: 1, name: 'release-notes', steps: [{ tool: 'web_search', arguments: { query: '{{topic}} 最新 release' } }], awkward: awkwardJson };

    it('saves a skill active at version 1, and finds it by id and by name with its document intact', async () => {
      const saved = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'Latest release notes of a project.', document, note: 'saved from run r1' });

      expect(saved).toEqual({
        id: 'skill-1',
        name: 'release-notes',
        description: 'Latest release notes of a project.',
        document,
        status: 'active',
        staleReason: null,
        version: 1,
        currentVersion: 1,
        userId: null,
        createdAt: expect.stringMatching(isoUtc),
        updatedAt: saved.createdAt,
      });
      expect(await store.skills.get('skill-1')).toEqual(saved);
      expect(await store.skills.get('release-notes')).toEqual(saved);
      expect(await store.skills.get('missing')).toBeUndefined();
      expect(await store.skills.versions('release-notes')).toEqual([{ skillId: 'skill-1', version: 1, document, note: 'saved from run r1', parentVersion: null, createdAt: saved.createdAt }]);
    });

    it('adds a version under the same name, keeping its id, makes it current and active again, and keeps every older version readable', async () => {
      const first = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'saved from run r1' });
      await store.skills.setStatus('release-notes', 'stale', 'web_search changed its input schema');

      const second = await store.skills.save({ id: 'skill-2', name: 'release-notes', description: 'v2', document: { ...document, version: 2 }, note: 'recording from run r2 added' });

      expect(second).toMatchObject({ id: 'skill-1', description: 'v2', document: { version: 2 }, status: 'active', staleReason: null, version: 2, currentVersion: 2, createdAt: first.createdAt });
      expect(await store.skills.list()).toEqual([second]);
      expect(await store.skills.get('skill-2')).toBeUndefined();
      expect(await store.skills.get('release-notes', 1)).toMatchObject({ id: 'skill-1', document, version: 1, currentVersion: 2 });
      expect(await store.skills.get('release-notes', 3)).toBeUndefined();
      expect((await store.skills.versions('skill-1')).map((version) => [version.version, version.parentVersion, version.note])).toEqual([
        [1, null, 'saved from run r1'],
        [2, 1, 'recording from run r2 added'],
      ]);
    });

    it('records the version a save derives from when told (a rollback), and never changes an older version', async () => {
      await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'saved' });
      await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v2', document: { changed: true }, note: 'edited' });

      const rolledBack = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'rolled back to version 1', parentVersion: 1 });

      expect(rolledBack).toMatchObject({ version: 3, document });
      expect((await store.skills.versions('release-notes')).map((version) => [version.version, version.parentVersion])).toEqual([
        [1, null],
        [2, 1],
        [3, 1],
      ]);
      expect((await store.skills.get('release-notes', 2))?.document).toEqual({ changed: true });
    });

    it('keeps the account that made a skill through later versions', async () => {
      await store.skills.save({ id: 'skill-ada', name: 'ada-notes', description: 'd', document: { steps: [] }, note: 'saved', userId: 'ada' });
      const next = await store.skills.save({ id: 'skill-other', name: 'ada-notes', description: 'd', document: { steps: [1] }, note: 'again', userId: 'bob' });

      expect(next).toMatchObject({ id: 'skill-ada', version: 2, userId: 'ada' });
      expect((await store.skills.get('ada-notes', 1))?.userId).toBe('ada');
    });

    it('marks a skill stale with its reason and active again, and refuses an unknown skill', async () => {
      await store.skills.save({ id: 'skill-1', name: 'release-notes', description: '', document, note: 'saved' });

      const stale = await store.skills.setStatus('skill-1', 'stale', 'output contract failed: step 1 returned nothing');
      expect(stale).toMatchObject({ status: 'stale', staleReason: 'output contract failed: step 1 returned nothing' });
      expect(await store.skills.get('release-notes')).toEqual(stale);
      expect(await store.skills.setStatus('release-notes', 'active', 'ignored')).toMatchObject({ status: 'active', staleReason: null });

      const error = await rejectionOf(store.skills.setStatus('missing', 'stale', 'why'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ kind: 'skill', id: 'missing' });
    });

    it('lists skills oldest first and deletes by name, versions included', async () => {
      for (const name of ['b-skill', 'a-skill', 'c-skill']) await store.skills.save({ id: `id-${name}`, name, description: name, document, note: 'saved' });

      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['b-skill', 'a-skill', 'c-skill']);
      expect(await store.skills.delete('a-skill')).toBe(true);
      expect(await store.skills.delete('a-skill')).toBe(false);
      expect(await store.skills.versions('a-skill')).toEqual([]);
      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['b-skill', 'c-skill']);
    });

    it('renames a skill keeping its id, versions, status and documents; the old name then finds nothing', async () => {
      await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'saved' });
      await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v2', document: { ...document, version: 2 }, note: 'again' });
      await store.skills.setStatus('release-notes', 'stale', 'schema changed');
      const versions = await store.skills.versions('skill-1');

      const renamed = await store.skills.rename('release-notes', 'project-notes');

      expect(renamed).toMatchObject({ id: 'skill-1', name: 'project-notes', description: 'v2', status: 'stale', staleReason: 'schema changed', version: 2, currentVersion: 2, document: { ...document, version: 2 } });
      expect(await store.skills.get('release-notes')).toBeUndefined();
      expect(await store.skills.get('project-notes')).toEqual(renamed);
      expect(await store.skills.versions('project-notes')).toEqual(versions);
      expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['project-notes']);
    });

    it('refuses to rename onto a taken name or an unknown skill, and changes nothing', async () => {
      await store.skills.save({ id: 'skill-a', name: 'a-skill', description: 'a', document, note: 'saved' });
      await store.skills.save({ id: 'skill-b', name: 'b-skill', description: 'b', document, note: 'saved' });
      const before = await store.skills.list();

      expect(await rejectionOf(store.skills.rename('a-skill', 'b-skill'))).toBeInstanceOf(DuplicateRecordError);
      expect(await rejectionOf(store.skills.rename('missing', 'c-skill'))).toBeInstanceOf(NotFoundError);
      expect(await store.skills.list()).toEqual(before);
    });
  });
}
