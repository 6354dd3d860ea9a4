import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewRun, Store } from '../../../core/index.js';
import { migrationsFor, SchemaVersionError } from '../migrations/index.js';
import { openStore } from '../open-store.js';
import { describeStoreContract } from '../contract/index.js';
import { applyMigrations } from './apply-migrations.js';
import { LibsqlStore } from './libsql-store.js';
import { SqliteConnection } from './sqlite-core.mjs';
import { sqliteDialect } from './sqlite-dialect.js';

const aRun: NewRun = { id: 'run-1', task: 'task', model: 'openai:gpt-4.1-mini', conversationId: null };

describeStoreContract('libsql file database', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'forge-store-'));
  const path = join(folder, 'forge.db');
  const opened: Store[] = [await openStore({ url: path })];
  return {
    store: opened[0] as Store,
    reopen: async () => {
      const store = await openStore({ url: path });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}, { durable: true });

describeStoreContract('libsql file database, SQL on a worker thread', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'forge-store-'));
  const path = join(folder, 'forge.db');
  const opened: Store[] = [await LibsqlStore.open({ path, thread: 'worker' })];
  return {
    store: opened[0] as Store,
    reopen: async () => {
      const store = await LibsqlStore.open({ path, thread: 'worker' });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}, { durable: true });

describeStoreContract(
  'libsql :memory: database',
  async () => {
    const store = await openStore({ url: ':memory:' });
    return { store, cleanup: () => store.close() };
  },
  { durable: false },
);

describe('LibsqlStore on a file', () => {
  let folder: string;
  const connections: SqliteConnection[] = [];
  const stores: Store[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'forge-store-'));
  });

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.close();
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await rm(folder, { recursive: true, force: true });
  });

  async function open(url: string): Promise<Store> {
    const store = await openStore({ url });
    stores.push(store);
    return store;
  }

  function rawConnection(path: string): SqliteConnection {
    const connection = SqliteConnection.open(path, { busyTimeoutMs: 0 });
    connections.push(connection);
    return connection;
  }

  async function appliedMigrations(path: string): Promise<{ version: unknown; name: unknown; applied_at: unknown }[]> {
    const result = rawConnection(path).execute('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
    return result.rows.map((row) => ({ version: row['version'], name: row['name'], applied_at: row['applied_at'] }));
  }

  it('applies each migration once, however often the file is opened', async () => {
    const path = join(folder, 'forge.db');
    const first = await open(path);
    await first.runs.create(aRun);
    const afterFirstOpen = await appliedMigrations(path);
    await first.close();

    const second = await open(path);

    expect(afterFirstOpen.map((row) => row.version)).toEqual(migrationsFor(sqliteDialect).map((migration) => migration.version));
    expect(afterFirstOpen.map((row) => row.name)).toEqual(migrationsFor(sqliteDialect).map((migration) => migration.name));
    expect(await appliedMigrations(path)).toEqual(afterFirstOpen);
    expect((await second.runs.list()).map((run) => run.id)).toEqual(['run-1']);
  });

  it('refuses a database stamped by a newer Forge and leaves it untouched', async () => {
    const path = join(folder, 'forge.db');
    const store = await open(path);
    await store.runs.create(aRun);
    await store.close();
    rawConnection(path).execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from-the-future', '2099-01-01T00:00:00.000Z')");
    const stamped = await appliedMigrations(path);

    const error = await openStore({ url: path }).then(
      (unexpected) => {
        stores.push(unexpected);
        throw new Error('A database from a newer Forge was opened.');
      },
      (refusal: unknown) => refusal,
    );

    expect(error).toBeInstanceOf(SchemaVersionError);
    const latestKnownVersion = Math.max(...migrationsFor(sqliteDialect).map((migration) => migration.version));
    expect(error).toMatchObject({ unknownVersions: [999], latestKnownVersion });
    expect((error as Error).message).toMatch(new RegExp(`schema version 999.*only knows versions up to ${latestKnownVersion}.*newer Forge`));
    expect(await appliedMigrations(path)).toEqual(stamped);
    const runs = rawConnection(path).execute('SELECT id FROM runs');
    expect(runs.rows.map((row) => row['id'])).toEqual(['run-1']);
  });

  it('applies pending migrations all or nothing', async () => {
    const path = join(folder, 'forge.db');
    const connection = rawConnection(path);
    const migrations = [
      { version: 1, name: 'good', up: ['CREATE TABLE first_table (id INTEGER)'] },
      { version: 2, name: 'broken', up: ['CREATE TABLE second_table (id INTEGER)', 'INSERT INTO table_that_does_not_exist VALUES (1)'] },
    ];

    await expect(applyMigrations(connection, migrations)).rejects.toThrow(/table_that_does_not_exist/);

    const tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
    expect(tables.rows).toEqual([]);
  });

  it('upgrades a toolbox mirrored by an older Forge: each tool keeps the use count its entry held, counted by the store from then on', async () => {
    const path = join(folder, 'forge.db');
    const older = rawConnection(path);
    await applyMigrations(older, migrationsFor(sqliteDialect).filter((migration) => migration.version <= 8));
    const entry = { name: 'count_links', status: 'promoted', uses: 5, source: 'export default async function run() {}' };
    older.execute({ sql: 'INSERT INTO toolbox_entries (name, status, entry, updated_at) VALUES (?, ?, ?, ?)', args: ['count_links', 'promoted', JSON.stringify(entry), '2026-01-01T00:00:00.000Z'] });
    older.execute({ sql: 'INSERT INTO toolbox_entries (name, status, entry, updated_at) VALUES (?, ?, ?, ?)', args: ['no_count', 'failed', '{"name":"no_count"}', '2026-01-01T00:00:00.000Z'] });

    const store = await open(path);
    await store.toolbox.addUse('count_links');

    expect((await store.toolbox.list()).map((record) => [record.name, record.uses])).toEqual([['count_links', 6], ['no_count', 0]]);
  });

  it('upgrades the steps an older Forge stored into tool-call analytics, bytes counted as UTF-8', async () => {
    const path = join(folder, 'forge.db');
    const older = rawConnection(path);
    await applyMigrations(older, migrationsFor(sqliteDialect).filter((migration) => migration.version <= 14));
    older.execute({ sql: "INSERT INTO runs (id, task, model, status, llm_calls, input_tokens, output_tokens, created_at, updated_at) VALUES ('run-old', 't', 'm', 'completed', 0, 0, 0, ?, ?)", args: ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'] });
    const step = 'INSERT INTO steps (run_id, position, call_id, tool, input, output, error, duration_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
    older.execute({ sql: step, args: ['run-old', 0, 'c0', 'read_url', '{"url":"https://café.example"}', 'é'.repeat(10), null, 30, '2026-01-01T00:00:01.000Z'] });
    older.execute({ sql: step, args: ['run-old', 1, 'c1', 'read_url', '{}', null, 'HTTP 503', 10, '2026-01-01T00:00:02.000Z'] });

    const store = await open(path);

    expect((await store.stats.summarize()).toolUsage).toEqual([{ tool: 'read_url', calls: 2, failures: 1, cacheHits: 0, p50Ms: 10, p95Ms: 30, bytesIn: 31 + 2, bytesOut: 20 + 8 }]);
  });

  it('counts every use two stores on one file make at once, as two processes would', async () => {
    const path = join(folder, 'forge.db');
    const first = await open(path);
    const second = await open(path);
    await first.toolbox.put({ name: 'count_links', status: 'promoted', entry: { name: 'count_links' }, updatedAt: '2026-01-01T00:00:00.000Z', uses: 0, owner: null });

    await Promise.all(Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? first : second).toolbox.addUse('count_links')));

    expect((await second.toolbox.get('count_links'))?.uses).toBe(200);
    expect((await first.toolbox.get('count_links'))?.uses).toBe(200);
  });

  it('commits a run\'s start at once, ahead of the writes gathering for the next group commit, and queues it behind another process\'s lock', async () => {
    const path = join(folder, 'forge.db');
    const store = await open(path);
    await store.runs.create(aRun);
    const reader = rawConnection(path);
    const committed = (id: string) => reader.execute({ sql: 'SELECT COUNT(*) AS n FROM runs WHERE id = ?', args: [id] }).rows[0]?.['n'];

    // Queued for the next turn of the event loop; the start does not wait for it (no turn passes here).
    const gathering = store.runs.update('run-1', { status: 'completed' });
    await store.runs.create({ ...aRun, id: 'run-2' });
    expect(committed('run-2')).toBe(1);
    expect(reader.execute("SELECT status FROM runs WHERE id = 'run-1'").rows[0]?.['status']).toBe('running');
    await gathering;
    expect(reader.execute("SELECT status FROM runs WHERE id = 'run-1'").rows[0]?.['status']).toBe('completed');

    // While another process holds the write lock, the start waits for it like any write.
    reader.execute('BEGIN IMMEDIATE');
    const waiting = store.runs.create({ ...aRun, id: 'run-3' });
    // A turn of the event loop: the group it was queued into finds the lock taken.
    await new Promise((resolve) => setImmediate(resolve));
    expect(committed('run-3')).toBe(0);
    reader.execute('COMMIT');
    await waiting;
    expect(committed('run-3')).toBe(1);
  });

  it('puts the file in write-ahead-log mode, on a connection that syncs at checkpoints (NORMAL) and enforces foreign keys', async () => {
    const path = join(folder, 'forge.db');
    await open(path);
    const connection = rawConnection(path);

    expect(connection.execute('PRAGMA journal_mode').rows[0]?.['journal_mode']).toBe('wal');
    expect(connection.execute('PRAGMA synchronous').rows[0]?.['synchronous']).toBe(1);
    expect(connection.execute('PRAGMA foreign_keys').rows[0]?.['foreign_keys']).toBe(1);
    expect(connection.execute('PRAGMA busy_timeout').rows[0]?.['timeout']).toBe(0);
  });

  it('waits for another process\'s write lock instead of failing at once, with the event loop free meanwhile', async () => {
    const path = join(folder, 'forge.db');
    const store = await open(path);
    const holder = await holdWriteLock(path);

    // A blocked event loop (SQLite's own busy wait) would let no timer fire while the lock is held:
    // the write must still be waiting after the loop has ticked five times, and finish once released.
    let settled = false;
    const write = store.runs.create(aRun).finally(() => (settled = true));
    await fiveTimerTicks();
    expect(settled).toBe(false);
    holder.release();
    await write;

    await holder.exited;
    expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-1']);
  });

  it('waits to open a file while another process holds a lock on it (a new file being created, in rollback-journal mode), then opens it in write-ahead-log mode', async () => {
    const path = join(folder, 'forge.db');
    // Switching to write-ahead logging needs the lock this process holds: opening must wait for it, not fail.
    const holder = await holdWriteLock(path, 'BEGIN EXCLUSIVE; CREATE TABLE held (id TEXT)');
    let settled = false;
    const opening = LibsqlStore.open({ path }).finally(() => (settled = true));
    await fiveTimerTicks();
    expect(settled).toBe(false);
    holder.release();
    const store = await opening;
    stores.push(store);
    await holder.exited;

    await store.runs.create(aRun);
    expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-1']);
    expect(rawConnection(path).execute('PRAGMA journal_mode').rows[0]?.['journal_mode']).toBe('wal');
  });

  it('fails a write loudly, and keeps nothing of it, when another process holds the lock past the timeout', async () => {
    const path = join(folder, 'forge.db');
    await (await open(path)).close();
    const store = await LibsqlStore.open({ path, busyTimeoutMs: 300 });
    stores.push(store);
    const holder = await holdWriteLock(path);

    await expect(store.runs.create(aRun)).rejects.toThrow(/another process held the database's write lock for more than 300 ms/);

    holder.release();
    await holder.exited;
    expect(await store.runs.list()).toEqual([]);
    await store.runs.create(aRun);
    expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-1']);
  });

  it('creates missing folders for a plain path and for a file: URL', async () => {
    const plainPath = join(folder, 'a', 'b', 'forge.db');
    const urlPath = join(folder, 'c d', 'e#f', 'forge.db');

    await open(plainPath);
    await open(pathToFileURL(urlPath).href);

    expect(existsSync(plainPath)).toBe(true);
    expect(existsSync(urlPath)).toBe(true);
  });

  it('resolves a relative path against the current folder', async () => {
    const previous = process.cwd();
    process.chdir(folder);
    try {
      await open('data/forge.db');
      await open('file:other/forge.db');
    } finally {
      process.chdir(previous);
    }

    expect(existsSync(join(folder, 'data', 'forge.db'))).toBe(true);
    expect(existsSync(join(folder, 'other', 'forge.db'))).toBe(true);
  });
});

describe('LibsqlStore in memory', () => {
  it('gives every store its own database', async () => {
    const first = await LibsqlStore.open({ path: ':memory:' });
    const second = await LibsqlStore.open({ path: ':memory:' });
    try {
      await first.runs.create(aRun);

      expect(await first.runs.list()).toHaveLength(1);
      expect(await second.runs.list()).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

/** Resolves after a 20 ms interval timer has fired five times: only an event loop nothing blocks gets there. */
function fiveTimerTicks(): Promise<void> {
  return new Promise((resolve) => {
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
      if (ticks < 5) return;
      clearInterval(ticker);
      resolve();
    }, 20);
  });
}

/**
 * Starts a separate process that takes the database's write lock (or the lock `take` takes), and resolves
 * once it holds it; the lock is held until `release()` (no timer: the test decides when).
 */
async function holdWriteLock(path: string, take = "BEGIN IMMEDIATE; INSERT INTO conversations (id, title, created_at) VALUES ('held', NULL, '2026-01-01T00:00:00.000Z')"): Promise<{ release(): void; exited: Promise<void> }> {
  const script = `
    import Database from 'libsql';
    const db = new Database(${JSON.stringify(path)});
    db.exec(${JSON.stringify(take)});
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '--eval', script], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The lock holder exited with code ${code}.`))));
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    exited.then(() => reject(new Error('The lock holder exited before taking the lock.')), reject);
  });
  return { release: () => child.stdin.end('release\n'), exited };
}
