import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/store/index.js';
import { runCli } from './support/built-cli.js';
import { dropSchema, freshSchemaName, onSchema, POSTGRES_TEST_URL } from './support/postgres-test-schema.js';

/** `forge store copy` from the built CLI: the home's embedded store into a PostgreSQL schema of its own. */
describe('forge store copy', () => {
  let home: string;
  let schema: string;
  let target: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-store-copy-'));
    const embedded = await openStore({ url: path.join(home, 'forge.db') });
    for (const id of ['run-a', 'run-b']) await embedded.runs.create({ id, task: `task ${id}`, model: 'openai:gpt-4.1-mini', conversationId: null });
    await embedded.conversations.create({ id: 'c-1', title: 'kept' });
    await embedded.close();
    schema = freshSchemaName();
    await onSchema('public', (client) => client.query(`CREATE SCHEMA ${schema}`));
    // A password in the URL (the test server trusts any), which nothing the command prints may show.
    const url = new URL(POSTGRES_TEST_URL);
    if (url.password === '') url.password = 'cli-s3cret';
    url.searchParams.set('options', `-c search_path=${schema}`);
    target = url.href;
  });

  afterAll(async () => {
    await dropSchema(schema);
    await rm(home, { recursive: true, force: true });
  });

  it('prints each table as it is copied and a summary, then refuses to copy into the now filled target', async () => {
    const copied = await runCli(['store', 'copy', '--to', target], { FORGE_HOME: home });

    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/^runs +2 rows$/m);
    expect(copied.stdout).toMatch(/^conversations +1 row$/m);
    expect(copied.stdout).toMatch(/^events +0 rows$/m);
    expect(copied.stdout).toMatch(/Copied 3 rows in \d+ tables from .*forge\.db to postgres:\/\/\*\*\*@/);
    expect(await onSchema(schema, async (client) => (await client.query('SELECT id FROM runs ORDER BY ordinal')).rows)).toEqual([{ id: 'run-a' }, { id: 'run-b' }]);

    const again = await runCli(['store', 'copy', '--to', target], { FORGE_HOME: home });

    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/forge: The target already holds records \(.*runs: 2.*\)/);
    expect(again.stderr).toMatch(/hint: .*CREATE SCHEMA/);
    for (const output of [copied.stdout, copied.stderr, again.stdout, again.stderr]) expect(output).not.toContain('cli-s3cret');
  }, 120_000);
});
