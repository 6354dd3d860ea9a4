import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';

describe('openStore file modes', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('creates the database, its WAL and shared-memory files and missing folders without group or other access', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'forge-store-modes-'));
    const folder = path.join(root, 'a', 'b');
    const store = await openStore({ url: path.join(folder, 'forge.db') });
    try {
      await store.runs.create({ id: 'run-modes', task: 'modes', model: 'openai:gpt-4.1-mini', conversationId: null });
      const files = (await readdir(folder)).filter((name) => name.startsWith('forge.db'));
      const modes: Record<string, number> = Object.fromEntries(await Promise.all([...files, '.', '..'].map(async (name) => [name, (await stat(path.join(folder, name))).mode & 0o777] as const)));

      expect(files).toEqual(expect.arrayContaining(['forge.db', 'forge.db-wal', 'forge.db-shm']));
      for (const [name, mode] of Object.entries(modes)) expect(mode & 0o077, `${name}: ${mode.toString(8)}`).toBe(0);
      expect(modes['forge.db']! & 0o600).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});
