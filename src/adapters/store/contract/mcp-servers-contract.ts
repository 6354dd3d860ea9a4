import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { isoUtc } from './contract-fixtures.js';

/** `Store.mcpServers`: the remote MCP servers a user added. */
export function describeMcpServersContract(context: StoreContractContext): void {
  describe('mcp servers', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    const sealed = 'v1.nonce.ciphertext.tag';

    it('creates a server, gets it back by name and lists servers in the order they were added', async () => {
      const created = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: sealed, enabledTools: null, trustAnnotations: false });
      await store.mcpServers.create({ name: 'alpha', transport: 'sse', url: 'https://legacy.example.org/sse', sealedHeaders: null, enabledTools: ['echo', 'get-sum'], trustAnnotations: true });
      await store.mcpServers.create({ name: 'local', transport: 'stdio', url: '["node", "server.js"]', sealedHeaders: null, enabledTools: null, trustAnnotations: false, allowStdio: true });

      expect(created).toEqual({
        name: 'docs',
        transport: 'streamable-http',
        url: 'https://mcp.example.org/mcp',
        sealedHeaders: sealed,
        enabledTools: null,
        trustAnnotations: false,
        allowStdio: false,
        createdAt: expect.stringMatching(isoUtc),
        updatedAt: created.createdAt,
      });
      expect(await store.mcpServers.get('docs')).toEqual(created);
      expect(await store.mcpServers.get('missing')).toBeUndefined();
      expect((await store.mcpServers.list()).map((server) => [server.name, server.enabledTools, server.trustAnnotations])).toEqual([
        ['docs', null, false],
        ['alpha', ['echo', 'get-sum'], true],
        ['local', null, false],
      ]);
      expect((await store.mcpServers.get('local'))?.allowStdio).toBe(true);
    });

    it('refuses a second server with a taken name and keeps the first', async () => {
      const first = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://one.example.org/mcp', sealedHeaders: null, enabledTools: null, trustAnnotations: false });

      await expect(store.mcpServers.create({ name: 'docs', transport: 'sse', url: 'https://two.example.org/sse', sealedHeaders: null, enabledTools: null, trustAnnotations: false })).rejects.toBeInstanceOf(DuplicateRecordError);
      expect(await store.mcpServers.list()).toEqual([first]);
    });

    it('updates only the given fields, clears enabled tools with null, and deletes', async () => {
      const created = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: sealed, enabledTools: ['echo'], trustAnnotations: false });

      const updated = await store.mcpServers.update('docs', { url: 'https://moved.example.org/mcp', enabledTools: null });

      expect(updated).toEqual({ ...created, url: 'https://moved.example.org/mcp', enabledTools: null, updatedAt: expect.stringMatching(isoUtc) });
      await expect(store.mcpServers.update('missing', { url: 'https://x.example.org' })).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.mcpServers.delete('docs')).toBe(true);
      expect(await store.mcpServers.delete('docs')).toBe(false);
      expect(await store.mcpServers.list()).toEqual([]);
    });
  });
}
