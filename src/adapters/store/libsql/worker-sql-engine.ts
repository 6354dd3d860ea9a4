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
    worker.on('error', (error) => this.fail(`its thread failed: ${error.message}`));
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
      throw error;
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

  async close(): Promise<void> {
    this.closing = true;
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
