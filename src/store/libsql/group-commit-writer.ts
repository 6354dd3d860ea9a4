import { StoreUnavailableError } from '../store-unavailable-error.js';
import type { SqlResult, WriteStep } from './sql-access.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { beginWrite } from './write-lock.js';

interface PendingUnit {
  readonly steps: readonly WriteStep[];
  resolve(results: SqlResult[]): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** How long a write waits for another process's write lock before it fails; default 5 s. */
  readonly busyTimeoutMs?: number;
  /** How many statements may wait for the next commit; past it, writes fail at once; default 100,000. */
  readonly maxQueuedSteps?: number;
}

/**
 * The one writer of a process's database connection. Writes queued during a tick (every run's events,
 * steps, messages, status changes) are committed together at the next one, in one transaction, each
 * unit inside its own savepoint: a unit that fails (a broken constraint) is rolled back alone and its
 * caller gets the error, the others commit. A unit's promise resolves only once its commit is done.
 *
 * The transaction runs start to end in one synchronous call, so no lock is ever held across an `await`
 * and reads on the same connection never see half of a unit. When another process holds the write
 * lock, the writer waits for it with timers (the event loop stays free) and fails the queued writes
 * loudly after `busyTimeoutMs`. The queue is bounded: a stuck or overloaded writer refuses new writes
 * with an error rather than growing without end, and nothing queued is ever dropped silently.
 */
export class GroupCommitWriter {
  private queue: PendingUnit[] = [];
  private queuedSteps = 0;
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly busyTimeoutMs: number;
  private readonly maxQueuedSteps: number;

  constructor(
    private readonly connection: SqliteConnection,
    options: GroupCommitOptions = {},
  ) {
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    this.maxQueuedSteps = options.maxQueuedSteps ?? 100_000;
  }

  write(steps: readonly WriteStep[]): Promise<SqlResult[]> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the store is closed', 'Open the store again before writing.'));
    if (steps.length === 0) return Promise.resolve([]);
    if (this.queuedSteps + steps.length > this.maxQueuedSteps) {
      return Promise.reject(
        new StoreUnavailableError(
          `${this.queuedSteps} writes are already waiting for the database, the most this process queues`,
          'The disk may be full or another process may hold the database for a long time; free space or stop it, then retry.',
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ steps, resolve, reject });
      this.queuedSteps += steps.length;
      this.schedule();
    });
  }

  /** Resolves once every write queued so far has been committed or has failed. */
  async drain(): Promise<void> {
    do await this.flushing;
    while (this.scheduled);
  }

  /** Commits what is queued, then refuses further writes. */
  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // At the next turn of the event loop, once this tick's writes are all queued, and after any earlier
    // flush that is still waiting for another process's lock.
    this.flushing = this.flushing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const units = this.queue;
    if (units.length === 0) return;
    this.queue = [];
    this.queuedSteps = 0;
    try {
      await beginWrite(this.connection, this.busyTimeoutMs);
    } catch (error) {
      for (const unit of units) unit.reject(error);
      return;
    }
    this.commit(units);
  }

  /**
   * Runs every unit in its savepoint and commits, all in one synchronous stretch. Anything that breaks
   * the transaction itself (an I/O error, a full disk at commit) fails every unit of the group.
   */
  private commit(units: readonly PendingUnit[]): void {
    let outcomes: Array<{ ok: true; results: SqlResult[] } | { ok: false; error: unknown }>;
    try {
      outcomes = units.map((unit) => this.runUnit(unit));
      this.connection.execute('COMMIT');
    } catch (error) {
      try {
        if (this.connection.inTransaction) this.connection.execute('ROLLBACK');
      } catch {
        // The connection reports the original failure; a rollback that also fails adds nothing to act on.
      }
      for (const unit of units) unit.reject(error);
      return;
    }
    units.forEach((unit, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) unit.resolve(outcome.results);
      else unit.reject(outcome.error);
    });
  }

  private runUnit(unit: PendingUnit): { ok: true; results: SqlResult[] } | { ok: false; error: unknown } {
    this.connection.execute('SAVEPOINT unit');
    try {
      const results = unit.steps.map((step) => runStep(this.connection, step));
      this.connection.execute('RELEASE unit');
      return { ok: true, results };
    } catch (error) {
      this.connection.execute('ROLLBACK TO unit');
      this.connection.execute('RELEASE unit');
      return { ok: false, error };
    }
  }
}

function runStep(connection: SqliteConnection, step: WriteStep): SqlResult {
  let result: SqlResult;
  try {
    result = connection.execute(step.statement);
  } catch (error) {
    throw step.onError?.(error) ?? error;
  }
  step.check?.(result);
  return result;
}
