import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemErrorOf, type Store } from '../../core/index.js';
import { databaseLocationFromUrl } from './database-location.js';
import { LibsqlStore, type SqlThread } from './libsql/index.js';

/**
 * Opens the store a database URL names and brings its schema up to date. Accepts `:memory:`, a
 * `file:` URL (`file:/absolute/path.db`, `file:relative/path.db`) or a plain filesystem path, relative
 * paths resolving against the current working folder; creates the file (mode 0600) and its missing
 * folders (0700) when missing, since the database holds runs, conversations and sealed secrets. SQLite
 * gives its WAL and shared-memory files the database file's mode. An existing file keeps its mode.
 *
 * A database that cannot be opened (read-only, not a database, a folder in the way) is a `SystemError`
 * naming the file and the fix.
 *
 * A `postgres://` or `postgresql://` URL opens `PostgresStore` on that server (a pool of 10 connections;
 * the URL's query is libpq's, e.g. `sslmode=require`, or `options=-c search_path=forge` for a schema of
 * its own, which must exist); a server that cannot be reached or refuses the login is a `SystemError`
 * naming `host:port` and the fix, never the password.
 *
 * Throws `ConfigurationError` for any other scheme, and `SchemaVersionError` for a database a newer
 * Forge wrote, which it leaves untouched. `thread` says where a file database's SQL runs (default: the
 * main thread; `worker` for its own thread, see `SqlThread`).
 */
export async function openStore(options: { url: string; thread?: SqlThread }): Promise<Store> {
  const location = databaseLocationFromUrl(options.url);
  if (location.kind === 'memory') return LibsqlStore.open({ path: ':memory:' });
  if (location.kind === 'postgres') {
    // Loaded only for a server, so commands on the embedded store never load the PostgreSQL driver.
    const { PostgresStore } = await import('./postgres/index.js');
    return PostgresStore.open({ url: location.url });
  }
  try {
    await mkdir(dirname(location.path), { recursive: true, mode: 0o700 });
    // Created here, empty, so SQLite finds it already private rather than creating it 0644.
    await (await open(location.path, 'a', 0o600)).close();
    return await LibsqlStore.open({ path: location.path, ...(options.thread === undefined ? {} : { thread: options.thread }) });
  } catch (error) {
    // Neither the file system's errors nor SQLite's name the database file; this says which one, and the fix.
    throw systemErrorOf(error, location.path) ?? error;
  }
}
