import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, SystemError, type NewRun, type Store } from '../../../core/index.js';
import { describeStoreContract } from '../contract/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { migrationsFor, SchemaVersionError } from '../migrations/index.js';
import { dropSchema, freshSchemaName, onSchema, POSTGRES_TEST_URL } from '../../../../test/support/postgres-test-schema.js';
import { postgresDialect } from './postgres-dialect.js';
import { PostgresStore } from './postgres-store.js';

const aRun = (id: string): NewRun => ({ id, task: `task of ${id}`, model: 'openai:gpt-4.1-mini', conversationId: null });

/** Schemas dropped after the test that made them, awaited once the file is done: a drop costs as much as a migration. */
const drops: Promise<void>[] = [];
afterAll(() => Promise.all(drops));

/** A store of its own on the test server: a pool of 3 connections (unless asked otherwise) in `schema`. */
function openInSchema(schema: string, poolSize = 3): Promise<PostgresStore> {
  return PostgresStore.open({ url: POSTGRES_TEST_URL, schema, poolSize });
}

describeStoreContract(
  'postgresql',
  async () => {
    const schema = freshSchemaName();
    const opened: Store[] = [await openInSchema(schema)];
    return {
      store: opened[0]!,
      reopen: async () => {
        const store = await openInSchema(schema);
        opened.push(store);
        return store;
      },
      cleanup: async () => {
        await Promise.all(opened.map((store) => store.close()));
        drops.push(dropSchema(schema));
      },
    };
  },
  { durable: true },
);

describe('PostgresStore', () => {
  // Each test's own schema, made fresh before it and dropped after it.
  let schema = '';
  const stores: Store[] = [];

  beforeEach(() => {
    schema = freshSchemaName();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    drops.push(dropSchema(schema));
  });

  async function open(poolSize?: number): Promise<PostgresStore> {
    const store = await openInSchema(schema, poolSize);
    stores.push(store);
    return store;
  }

  async function appliedMigrations(): Promise<{ version: number; name: string; times: number }[]> {
    return onSchema(schema, async (client) => {
      const result = await client.query<{ version: number; name: string; times: string }>('SELECT version, MIN(name) AS name, COUNT(*) AS times FROM schema_migrations GROUP BY version ORDER BY version');
      return result.rows.map((row) => ({ version: row.version, name: row.name, times: Number(row.times) }));
    });
  }

  it('migrates a new schema exactly once when four stores open it at the same moment, and every one of them works', async () => {
    const opened = await Promise.all([open(1), open(1), open(1), open(1)]);

    expect(await appliedMigrations()).toEqual(migrationsFor(postgresDialect).map((migration) => ({ version: migration.version, name: migration.name, times: 1 })));
    await opened[0]!.runs.create(aRun('run-1'));
    for (const store of opened) expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-1']);
  });

  it('refuses a schema stamped by a newer Forge and leaves it untouched', async () => {
    const first = await open();
    await first.runs.create(aRun('run-1'));
    await onSchema(schema, (client) => client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from-the-future', '2099-01-01T00:00:00.000Z')"));
    const stamped = await appliedMigrations();

    const refusal = await open().then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(SchemaVersionError);
    const latestKnownVersion = Math.max(...migrationsFor(postgresDialect).map((migration) => migration.version));
    expect(refusal).toMatchObject({ unknownVersions: [999], latestKnownVersion });
    expect(await appliedMigrations()).toEqual(stamped);
    expect((await first.runs.list()).map((run) => run.id)).toEqual(['run-1']);
  });

  it('says at once, naming host:port and the fix, that nothing listens where the URL points, and never repeats the password', async () => {
    const refusal = await PostgresStore.open({ url: 'postgres://forge:s3cret-pass@127.0.0.1:1/forge' }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(SystemError);
    expect(refusal).toMatchObject({ code: 'ECONNREFUSED', target: '127.0.0.1:1' });
    const { message, hint } = (refusal as SystemError).toJSON();
    expect(message).toMatch(/Nothing is listening at 127\.0\.0\.1:1.*PostgreSQL/);
    expect(hint).toMatch(/Start PostgreSQL there, or correct the host and port in FORGE_DATABASE_URL/);
    expect(JSON.stringify({ message, hint, stack: (refusal as Error).stack })).not.toContain('s3cret-pass');
  });

  it('names a missing database with the fix, and keeps the password out of every refusal', async () => {
    const missingDatabase = await PostgresStore.open({ url: POSTGRES_TEST_URL.replace(/\/[^/]*$/, '/forge_no_such_database').replace('://postgres@', '://postgres:pa55-w0rd@') }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const unparsable = await PostgresStore.open({ url: 'postgres://forge:pa55-w0rd@127.0.0.1:notaport/forge' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const badSchema = await PostgresStore.open({ url: 'postgres://forge:pa55-w0rd@127.0.0.1/forge', schema: 'Robert"; DROP' }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(missingDatabase).toBeInstanceOf(SystemError);
    expect(missingDatabase).toMatchObject({ code: '3D000', message: expect.stringMatching(/forge_no_such_database/), hint: expect.stringMatching(/createdb/) });
    expect(unparsable).toBeInstanceOf(ConfigurationError);
    expect(badSchema).toBeInstanceOf(ConfigurationError);
    for (const error of [missingDatabase, unparsable, badSchema]) expect(JSON.stringify((error as SystemError).toJSON())).not.toContain('pa55-w0rd');
  });

  it('fails a read that waited past the timeout for the pool\'s one busy connection, naming why, and carries on once it is free', async () => {
    const store = await PostgresStore.open({ url: POSTGRES_TEST_URL, schema, poolSize: 1, connectTimeoutMs: 300 });
    stores.push(store);
    await store.runs.create(aRun('run-1'));
    const holder = new pg.Client({ connectionString: POSTGRES_TEST_URL, options: `-c search_path=${schema}` });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE runs IN EXCLUSIVE MODE');
      // The write holds the pool's one connection while it waits for the lock.
      const blocked = store.runs.update('run-1', { status: 'completed' });

      const refusal = await store.runs.get('run-1').then(
        () => undefined,
        (error: unknown) => error,
      );

      expect(refusal).toBeInstanceOf(SystemError);
      expect(refusal).toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/every connection of the pool stayed busy/) });
      await holder.query('COMMIT');
      await blocked;
      expect(await store.runs.get('run-1')).toMatchObject({ status: 'completed' });
    } finally {
      await holder.end();
    }
  });

  it('rolls a whole unit back when its second step fails, and gives its connection back clean', async () => {
    const store = await open(1);
    await store.runs.create(aRun('run-1'));
    await store.events.append({ ts: '2026-01-02T03:04:05.678Z', run_id: 'run-1', seq: 0, type: 'assistant-text', iteration: 1, text: 'kept' });

    const failure = store.transaction(async (writes) => {
      await writes.runs.update('run-1', { status: 'completed', llmCalls: 3 });
      await writes.events.append({ ts: '2026-01-02T03:04:06.000Z', run_id: 'run-1', seq: 0, type: 'assistant-text', iteration: 1, text: 'a taken seq' });
    });

    await expect(failure).rejects.toBeInstanceOf(DuplicateRecordError);
    const stored = await onSchema(schema, async (client) => ({
      runs: (await client.query('SELECT status, llm_calls::integer AS llm_calls FROM runs')).rows,
      events: (await client.query('SELECT seq FROM events')).rows,
      transactionsLeftOpen: Number((await client.query("SELECT COUNT(*) AS open FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND datname = current_database()")).rows[0].open),
    }));
    expect(stored).toEqual({ runs: [{ status: 'running', llm_calls: 0 }], events: [{ seq: 0 }], transactionsLeftOpen: 0 });
    // The pool's one connection serves the next write and read, so it came back out of the aborted transaction.
    await store.runs.update('run-1', { status: 'completed' });
    expect(await store.runs.get('run-1')).toMatchObject({ status: 'completed', llmCalls: 0 });
  });

  it('numbers messages and policy versions without gaps or twins when two processes write them at once', async () => {
    const first = await open(4);
    const second = await open(4);
    await first.conversations.create({ id: 'conversation-1' });
    const message = (text: string) => ({ runId: null, role: 'user' as const, content: text, toolCallIds: [], model: null, inputTokens: null, outputTokens: null });

    const appended = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? first : second).conversations.appendMessages('conversation-1', [message(`m${index}a`), message(`m${index}b`)])));
    const saved = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? first : second).policies.save({ scope: 'installation', document: { index }, author: `a${index}`, message: 'race' })));

    const messages = await second.conversations.listMessages('conversation-1');
    expect(messages).toHaveLength(24);
    // Each batch is whole and in order, and the ids the appends returned are the stored ones.
    for (const batch of appended) {
      const at = messages.findIndex((stored) => stored.id === batch[0]!.id);
      expect(messages.slice(at, at + 2).map((stored) => stored.id)).toEqual(batch.map((each) => each.id));
    }
    expect(saved.map((each) => each?.version).sort((left, right) => left! - right!)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });

  it('reads back big counts as numbers, and keeps a schema named in the URL options', async () => {
    await onSchema('public', (client) => client.query(`CREATE SCHEMA ${schema}`));
    const store = await PostgresStore.open({ url: `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, poolSize: 1 });
    stores.push(store);
    await store.runs.create(aRun('run-1'));
    await store.runs.update('run-1', { inputTokens: 2 ** 40, outputTokens: 7 });

    expect(await store.runs.get('run-1')).toMatchObject({ inputTokens: 2 ** 40, outputTokens: 7 });
    expect(await onSchema(schema, async (client) => (await client.query('SELECT id FROM runs')).rows)).toEqual([{ id: 'run-1' }]);
  });
});
