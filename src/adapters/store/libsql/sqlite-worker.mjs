// @ts-check
/**
 * The store's worker thread: it owns the database file's one connection and runs every read and every
 * group commit the main thread sends, in order, so SQLite's work (and any wait for another process's
 * lock, which SQLite's busy handler does here by sleeping) never blocks the main thread's event loop.
 *
 * Plain JavaScript on purpose: Node 20 cannot start a worker from a TypeScript file, and this file has
 * to run unchanged from `src/` (tests) and `dist/` (the build emits it with `allowJs`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { commitGroup, failureData, SqliteConnection } from './sqlite-core.mjs';

/** @typedef {import('./sqlite-protocol.js').SqliteWorkerData} SqliteWorkerData */
/** @typedef {import('./sqlite-protocol.js').SqliteWorkerRequest} SqliteWorkerRequest */
/** @typedef {import('./sqlite-protocol.js').SqliteWorkerReply} SqliteWorkerReply */
/** @typedef {import('./sqlite-protocol.js').SqlFailureData} SqlFailureData */

const port = parentPort;
if (port === null) throw new Error('sqlite-worker.mjs must run as a worker thread');
const { path, busyTimeoutMs } = /** @type {SqliteWorkerData} */ (workerData);

// A database that cannot be opened (locked past the busy timeout, unreadable, not a database) is not
// thrown here: an uncaught error loses its message crossing the thread (libSQL's SqliteError keeps it in
// a property the thread boundary drops). Every request is answered with the cause instead.
/** @type {SqliteConnection | undefined} */
let connection;
/** @type {SqlFailureData | undefined} */
let openFailure;
try {
  connection = SqliteConnection.open(path, { busyTimeoutMs });
} catch (error) {
  openFailure = failureData(error);
}

port.on('message', (/** @type {SqliteWorkerRequest} */ request) => {
  /** @type {SqliteWorkerReply} */
  let reply;
  try {
    if (connection === undefined) {
      reply = { id: request.id, ok: false, error: openFailure ?? { name: 'Error', message: 'the database was not opened' } };
    } else if (request.type === 'close') {
      connection.close();
      connection = undefined;
      openFailure = { name: 'Error', message: 'the database is closed' };
      reply = { id: request.id, ok: true, value: { rows: [], rowsAffected: 0 } };
    } else if (request.type === 'read') {
      reply = { id: request.id, ok: true, value: connection.execute(request.statement) };
    } else {
      // SQLite's busy handler waits here, up to busy_timeout, for another process's write lock.
      connection.execute('BEGIN IMMEDIATE');
      reply = { id: request.id, ok: true, value: commitGroup(connection, request.units) };
    }
  } catch (error) {
    reply = { id: request.id, ok: false, error: failureData(error) };
  }
  port.postMessage(reply);
});

port.on('close', () => connection?.close());
