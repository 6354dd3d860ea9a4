// @ts-check
/**
 * The SQLite side of the store, shared by the two engines: the one on the main thread (in-memory
 * databases) and the worker thread that owns a file's connection (sqlite-worker.mjs).
 *
 * Plain JavaScript on purpose: Node 20 cannot start a worker from a TypeScript file, and this file has
 * to run unchanged from `src/` (tests) and `dist/` (the build emits it with `allowJs`).
 */
import Database from 'libsql';

/** @typedef {import('../sql/index.js').SqlStatement} SqlStatement */
/** @typedef {import('../sql/index.js').SqlResult} SqlResult */
/** @typedef {import('./sqlite-protocol.js').UnitRequest} UnitRequest */
/** @typedef {import('./sqlite-protocol.js').UnitOutcome} UnitOutcome */
/** @typedef {import('./sqlite-protocol.js').GroupOutcome} GroupOutcome */
/** @typedef {import('./sqlite-protocol.js').SqlFailureData} SqlFailureData */

/** Prepared statements kept per connection; the SQL Forge runs has a few hundred distinct texts at most. */
const statementCacheSize = 512;

/**
 * One SQLite connection (libSQL's embedded engine), opened with the settings Forge relies on:
 * write-ahead logging for a file (readers never wait for the writer), `synchronous = NORMAL` (a commit
 * survives the process being killed; a power loss or an operating-system crash can lose the last
 * commits, never corrupt the file), foreign keys enforced, and `busy_timeout` as given: 0 on the main
 * thread (a lock held by another process is reported at once, and waited for with timers), the wait
 * itself in the worker, where blocking stops nothing else.
 *
 * Every call is synchronous. Statements are prepared once and reused.
 */
export class SqliteConnection {
  /** @type {Map<string, any>} */
  #statements = new Map();
  /** @type {any} */
  #database;

  /** @param {any} database */
  constructor(database) {
    this.#database = database;
  }

  /**
   * Opens a database file (which must exist or be creatable) or `:memory:`.
   * @param {string} location
   * @param {{ busyTimeoutMs: number }} options
   */
  static open(location, options) {
    const connection = new SqliteConnection(new Database(location));
    try {
      // The busy timeout first: switching to write-ahead logging takes a lock another connection may hold.
      connection.execute(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
      if (location !== ':memory:') connection.execute('PRAGMA journal_mode = WAL');
      connection.execute('PRAGMA synchronous = NORMAL');
      connection.execute('PRAGMA foreign_keys = ON');
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /**
   * @param {SqlStatement | string} statement
   * @returns {SqlResult}
   */
  execute(statement) {
    const { sql, args = [] } = typeof statement === 'string' ? { sql: statement } : statement;
    const prepared = this.#prepared(sql);
    if (prepared.reader) return { rows: prepared.all(args), rowsAffected: 0 };
    return { rows: [], rowsAffected: prepared.run(args).changes };
  }

  /** @returns {boolean} */
  get inTransaction() {
    return this.#database.inTransaction;
  }

  close() {
    this.#statements.clear();
    if (this.#database.open) this.#database.close();
  }

  /** @param {string} sql */
  #prepared(sql) {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      // Most recently used last, so the oldest is the one evicted.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const prepared = this.#database.prepare(sql);
    this.#statements.set(sql, prepared);
    if (this.#statements.size > statementCacheSize) this.#statements.delete(/** @type {string} */ (this.#statements.keys().next().value));
    return prepared;
  }
}

/**
 * Whether SQLite refused because another connection holds a lock (SQLITE_BUSY or SQLITE_LOCKED, any variant).
 * @param {unknown} error
 */
export function isBusy(error) {
  const code = /** @type {{ code?: unknown } | null} */ (error)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * @param {unknown} error
 * @returns {SqlFailureData}
 */
export function failureData(error) {
  const { name, message, code } = /** @type {{ name?: unknown; message?: unknown; code?: unknown }} */ (error ?? {});
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * Runs a group of units inside the write transaction the caller opened (`BEGIN IMMEDIATE`), each in
 * its own savepoint, and commits, all in one synchronous stretch: a unit that fails is rolled back
 * alone; anything that breaks the transaction itself (an I/O error, a full disk at commit) loses the
 * whole group, rolled back.
 * @param {SqliteConnection} connection
 * @param {readonly UnitRequest[]} units
 * @returns {GroupOutcome}
 */
export function commitGroup(connection, units) {
  /** @type {UnitOutcome[]} */
  const outcomes = [];
  try {
    for (const unit of units) outcomes.push(runUnit(connection, unit));
    connection.execute('COMMIT');
    return { committed: true, outcomes };
  } catch (error) {
    try {
      if (connection.inTransaction) connection.execute('ROLLBACK');
    } catch {
      // The original failure is what to report; a rollback that also fails adds nothing to act on.
    }
    return { committed: false, error: failureData(error) };
  }
}

/**
 * @param {SqliteConnection} connection
 * @param {UnitRequest} unit
 * @returns {UnitOutcome}
 */
function runUnit(connection, unit) {
  connection.execute('SAVEPOINT unit');
  /** @type {SqlResult[]} */
  const results = [];
  /** @type {UnitOutcome | undefined} */
  let failed;
  for (const [step, statement] of unit.statements.entries()) {
    try {
      const result = connection.execute(statement);
      if (unit.requireChange[step] === true && result.rowsAffected === 0 && result.rows.length === 0) {
        failed = { ok: false, step, unchanged: true };
        break;
      }
      results.push(result);
    } catch (error) {
      failed = { ok: false, step, unchanged: false, error: failureData(error) };
      break;
    }
  }
  if (failed !== undefined) connection.execute('ROLLBACK TO unit');
  connection.execute('RELEASE unit');
  return failed ?? { ok: true, results };
}
