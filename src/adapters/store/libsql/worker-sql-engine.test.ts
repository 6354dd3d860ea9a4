import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteConnection } from './sqlite-core.mjs';
import { threadErrorText, WorkerSqlEngine } from './worker-sql-engine.js';

const folders: string[] = [];
function databasePath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'forge-worker-engine-'));
  folders.push(folder);
  return join(folder, 'forge.db');
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('WorkerSqlEngine', () => {
  it('names the cause when the database cannot be opened because another connection holds its lock (was "its thread failed: undefined")', async () => {
    const path = databasePath();
    const holder = SqliteConnection.open(path, { busyTimeoutMs: 0 });
    holder.execute('PRAGMA journal_mode = DELETE');
    holder.execute('CREATE TABLE held (x INTEGER)');
    holder.execute('BEGIN EXCLUSIVE');
    holder.execute('INSERT INTO held VALUES (1)');
    try {
      const failure = await WorkerSqlEngine.start(path, 0).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.name).toBe('StoreUnavailableError');
      expect(failure?.message).toContain('another process held a lock on the database');
      expect(failure?.message).not.toContain('undefined');
    } finally {
      holder.close();
    }
  });

  it('names the cause when the path cannot hold a database', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'forge-worker-engine-'));
    folders.push(folder);
    const failure = await WorkerSqlEngine.start(folder, 0).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain(`the database ${folder} could not be opened`);
    expect(failure?.message).not.toContain('undefined');
  });

  it('closes the connection on its thread before stopping it: the write-ahead log is checkpointed and the file opens again at once', async () => {
    const path = databasePath();
    for (let round = 0; round < 5; round += 1) {
      const engine = await WorkerSqlEngine.start(path, 0);
      await engine.commit([{ statements: [{ sql: 'CREATE TABLE IF NOT EXISTS kept (x INTEGER)' }, { sql: 'INSERT INTO kept VALUES (?)', args: [round] }], requireChange: [false, true] }]);
      expect(existsSync(`${path}-wal`)).toBe(true);
      await engine.close();
      expect(existsSync(`${path}-wal`)).toBe(false);
    }
    const engine = await WorkerSqlEngine.start(path, 0);
    const { rows } = await engine.read({ sql: 'SELECT count(*) AS n FROM kept' });
    expect(rows[0]).toEqual({ n: 5 });
    await engine.close();
    await expect(engine.read({ sql: 'SELECT 1' })).rejects.toThrow('the store is closed');
  });

  it('describes a thrown value whose message the thread boundary dropped', () => {
    const connection = SqliteConnection.open(':memory:', { busyTimeoutMs: 0 });
    let thrown: unknown;
    try {
      connection.execute('SELEC 1');
    } catch (error) {
      thrown = error;
    } finally {
      connection.close();
    }
    // libSQL's SqliteError keeps its message in a non-enumerable property: a structured clone (what a
    // worker's uncaught error goes through) drops it.
    const crossed = structuredClone(thrown) as { message?: unknown };
    expect(crossed.message).toBeUndefined();
    expect(threadErrorText(crossed)).not.toContain('undefined');
    expect(threadErrorText(crossed)).toContain('SQLITE_ERROR');
    expect(threadErrorText(new Error('disk I/O error'))).toBe('Error: disk I/O error');
    expect(threadErrorText(undefined)).toBe('a value with no description (undefined)');
  });
});
