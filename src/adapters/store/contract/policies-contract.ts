import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc } from './contract-fixtures.js';

/** `Store.policies`: immutable versions per scope, numbered without gaps or twins, the latest in force. */
export function describePoliciesContract(context: StoreContractContext): void {
  describe('policies', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const document = (decision: string) => ({ version: 1, defaults: {}, rules: [{ tool: 'shell', decision, when: [{ argument: 'command', matches: 'rm ' }] }] });

    it('saves numbered versions per scope and reads the latest of several scopes at once', async () => {
      const first = await store.policies.save({ scope: 'installation', document: document('block'), author: 'cli', message: 'first' });
      expect(first).toEqual({ scope: 'installation', version: 1, document: document('block'), author: 'cli', message: 'first', createdAt: expect.stringMatching(isoUtc) });
      await store.policies.save({ scope: 'installation', document: document('require_approval'), author: 'alice', message: 'second' });
      await store.policies.save({ scope: 'run:r1', document: document('block'), author: 'cli', message: 'run' });
      const latest = await store.policies.latest(['installation', 'run:r1', 'agent:none']);
      expect(latest.map((each) => [each.scope, each.version, (each.document as { rules: Array<{ decision: string }> }).rules[0]?.decision]).sort()).toEqual([
        ['installation', 2, 'require_approval'],
        ['run:r1', 1, 'block'],
      ]);
      expect(await store.policies.latest([])).toEqual([]);
      expect((await store.policies.versions('installation')).map((each) => each.version)).toEqual([2, 1]);
      expect(await store.policies.get('installation', 1)).toMatchObject({ message: 'first' });
      expect(await store.policies.get('installation', 9)).toBeUndefined();
      expect(await store.policies.scopes()).toEqual(['installation', 'run:r1']);
      expect(await store.policies.scopes('run:')).toEqual(['run:r1']);
    });

    it('gives concurrent saves distinct versions, and refuses a save whose expected version is stale', async () => {
      const saved = await Promise.all(Array.from({ length: 5 }, (_, index) => store.policies.save({ scope: 'installation', document: document('block'), author: `a${index}`, message: 'race' })));
      expect(saved.map((each) => each?.version).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await store.policies.save({ scope: 'installation', document: document('allow'), author: 'late', message: 'stale' }, { expectedVersion: 4 })).toBeUndefined();
      expect(await store.policies.save({ scope: 'installation', document: document('allow'), author: 'fresh', message: 'ok' }, { expectedVersion: 5 })).toMatchObject({ version: 6 });
      expect(await store.policies.save({ scope: 'agent:x', document: document('allow'), author: 'new', message: 'first' }, { expectedVersion: 0 })).toMatchObject({ version: 1 });
    });
  });
}
