import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemError } from '../../core/index.js';
import { dropSchema, freshSchemaName, onSchema, POSTGRES_TEST_URL } from '../../../test/support/postgres-test-schema.js';
import { openStore } from './open-store.js';
import { PostgresStore } from './postgres/index.js';

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

describe('openStore with a PostgreSQL URL', () => {
  it('opens the PostgreSQL store in the schema the URL options name, and keeps what it writes there', async () => {
    const schema = freshSchemaName();
    await onSchema('public', (client) => client.query(`CREATE SCHEMA ${schema}`));
    try {
      const url = `${POSTGRES_TEST_URL.replace(/^postgres:/, 'postgresql:')}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const store = await openStore({ url });
      try {
        await store.runs.create({ id: 'run-pg', task: 'on the server', model: 'openai:gpt-4.1-mini', conversationId: null });

        expect(store).toBeInstanceOf(PostgresStore);
        expect(await onSchema(schema, async (client) => (await client.query('SELECT id, task FROM runs')).rows)).toEqual([{ id: 'run-pg', task: 'on the server' }]);
      } finally {
        await store.close();
      }
    } finally {
      await dropSchema(schema);
    }
  });

  it('says which schema is missing from the server rather than failing on a table', async () => {
    const refusal = await openStore({ url: `${POSTGRES_TEST_URL}?options=${encodeURIComponent('-c search_path=forge_no_such_schema')}` }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(SystemError);
    expect(refusal).toMatchObject({ code: '3F000', hint: expect.stringMatching(/CREATE SCHEMA/) });
  });
});
