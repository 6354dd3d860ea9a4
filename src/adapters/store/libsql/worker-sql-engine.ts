import { Worker } from 'node:worker_threads';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import type { SqlResult, SqlStatement } from '../sql/index.js';
import { sqlErrorFrom, type SqlEngine } from './sql-engine.js';
import { isBusy } from './sqlite-core.mjs';
import type { GroupOutcome, SqliteWorkerData, SqliteWorkerReply, SqliteWorkerRequest, UnitRequest } from './sqlite-protocol.js';
import { busyFailure } from './write-lock.js';

const workerScript = new URL('./sqlite-worker.mjs', import.meta.url);

type Request = SqliteWorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: SqlResult | GroupOutcome): void;
  reject(error: unknown): void;
}

/**
 * The SQL engine on a worker thread that owns the database file's connection (sqlite-worker.mjs): the
 * main thread only builds statements and posts them, so SQLite's work and any wait for another
 * process's lock happen off the event loop. Requests run in the order they are sent. The thread keeps
 * the process alive only while a request is in flight, so a forgotten store never holds a CLI open,
 * and a write in flight is never abandoned by an exiting process. If the thread dies, every request
 * in flight and every later one fails with `StoreUnavailableError`.
 */
export class WorkerSqlEngine implements SqlEngine {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: StoreUnavailableError | undefined;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    private readonly busyTimeoutMs: number,
  ) {
    worker.unref();
    worker.on('message', (reply: SqliteWorkerReply) => this.settle(reply));
    worker.on('error', (error: unknown) => this.fail(`its thread failed: ${threadErrorText(error)}`));
    worker.on('exit', (code) => {
      if (!this.closing) this.fail(`its thread exited (code ${code})`);
    });
  }

  /** Starts the thread on the database at `path` and waits until it answers. */
  static async start(path: string, busyTimeoutMs: number): Promise<WorkerSqlEngine> {
    const workerData: SqliteWorkerData = { path, busyTimeoutMs };
    const engine = new WorkerSqlEngine(new Worker(workerScript, { workerData }), busyTimeoutMs);
    try {
      await engine.read({ sql: 'SELECT 1 AS ready' });
    } catch (error) {
      await engine.close();
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(
        `the database ${path} could not be opened: ${threadErrorText(error)}`,
        'Check that the path names a Forge database file (or a new file in a folder that exists) and that this user may read and write it.',
      );
    }
    return engine;
  }

  async read(statement: SqlStatement): Promise<SqlResult> {
    try {
      return (await this.request({ type: 'read', statement })) as SqlResult;
    } catch (error) {
      throw isBusy(error) ? busyFailure('another process held a lock on the database', this.busyTimeoutMs) : error;
    }
  }

  async commit(units: readonly UnitRequest[]): Promise<GroupOutcome> {
    try {
      return (await this.request({ type: 'group', units })) as GroupOutcome;
    } catch (error) {
      throw isBusy(error) ? busyFailure("another process held the database's write lock", this.busyTimeoutMs) : error;
    }
  }

  /** Never: the connection is the thread's, reached only by a message and its answer. */
  commitAtOnce(): undefined {
    return undefined;
  }

  /**
   * Closes the connection on its thread first (so the write-ahead log is checkpointed and every lock
   * released before another connection opens the file), then stops the thread.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      if (this.failure === undefined) await this.request({ type: 'close' });
    } catch {
      // The thread failed or the database never opened: there is no connection left to close.
    }
    await this.worker.terminate();
    this.fail('the store is closed');
  }

  private request(request: Request): Promise<SqlResult | GroupOutcome> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  private settle(reply: SqliteWorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(sqlErrorFrom(reply.error));
  }

  private fail(reason: string): void {
    this.failure ??= new StoreUnavailableError(`the database is unavailable: ${reason}`, 'Open the store again; writes that were in flight may not have been committed.');
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}

/**
 * Words for whatever a dying thread reported. A value thrown on the thread crosses it by structured
 * clone, which keeps an Error's message but not a message an error object keeps in a non-enumerable
 * property of its own (libSQL's SqliteError), so `message` alone can be missing.
 */
export function threadErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { message, code, name } = error as { message?: unknown; code?: unknown; name?: unknown };
    const parts = [name, code, message].filter((part): part is string => typeof part === 'string' && part !== '');
    if (parts.length > 0) return parts.join(': ');
    const json = safeJson(error);
    if (json !== undefined && json !== '{}') return json;
  }
  return `a value with no description (${String(error)})`;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
