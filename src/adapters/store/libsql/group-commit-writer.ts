import { StoreUnavailableError } from '../store-unavailable-error.js';
import { type SqlResult, type WriteStep, stepFailure } from '../sql/index.js';
import { sqlErrorFrom, type SqlEngine } from './sql-engine.js';
import type { UnitOutcome, UnitRequest } from './sqlite-protocol.js';

interface PendingUnit {
  readonly steps: readonly WriteStep[];
  resolve(results: SqlResult[]): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** How many statements may wait for the next commit; past it, writes fail at once; default 100,000. */
  readonly maxQueuedSteps?: number;
}

/**
 * The one writer of a process's database. Writes queued during a tick (every run's events, steps,
 * messages, status changes) are committed together at the next one, in one transaction, each unit in
 * its own savepoint: a unit that fails (a broken constraint, an update of nothing) is rolled back alone
 * and its caller gets the error, mapped by the step that failed; the others commit. A unit's promise
 * resolves only once its commit is done. While one group commits, the next one gathers.
 *
 * The transaction runs start to end in one synchronous stretch of the engine, so no lock is held
 * across an `await` and reads never see half a unit. The queue is bounded: a stuck or overloaded
 * database refuses new writes with an error rather than growing without end, and nothing queued is
 * ever dropped silently: every unit is committed or told why not.
 */
export class GroupCommitWriter {
  private queue: PendingUnit[] = [];
  private queuedSteps = 0;
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly maxQueuedSteps: number;

  constructor(
    private readonly engine: SqlEngine,
    options: GroupCommitOptions = {},
  ) {
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

  /**
   * A write someone waits on to go on (a run's start): committed at once, in a transaction of its own,
   * instead of after the next turn of the event loop behind every write gathered meanwhile, when the
   * engine can (`SqlEngine.commitAtOnce`); queued like any other write when it cannot. It never waits
   * for a group, so a start's latency does not grow with what other runs are writing.
   */
  writeNow(steps: readonly WriteStep[]): Promise<SqlResult[]> {
    if (this.closed || steps.length === 0) return this.write(steps);
    const group = this.engine.commitAtOnce([unitOf(steps)]);
    if (group === undefined) return this.write(steps);
    if (!group.committed) return Promise.reject(sqlErrorFrom(group.error));
    return new Promise((resolve, reject) => settle({ steps, resolve, reject }, group.outcomes[0]!));
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
    // At the next turn of the event loop, once this tick's writes are all queued, and after the group
    // that is committing now.
    this.flushing = this.flushing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const units = this.queue;
    if (units.length === 0) return;
    this.queue = [];
    this.queuedSteps = 0;
    try {
      const group = await this.engine.commit(units.map((unit) => unitOf(unit.steps)));
      if (!group.committed) throw sqlErrorFrom(group.error);
      units.forEach((unit, index) => settle(unit, group.outcomes[index]!));
    } catch (error) {
      // The whole group was lost (the lock never came, the disk is full, the thread died): each caller hears it.
      for (const unit of units) unit.reject(error);
    }
  }
}

function unitOf(steps: readonly WriteStep[]): UnitRequest {
  return { statements: steps.map((step) => step.statement), requireChange: steps.map((step) => step.ifUnchanged !== undefined) };
}

function settle(unit: PendingUnit, outcome: UnitOutcome): void {
  if (outcome.ok) {
    unit.resolve(outcome.results);
    return;
  }
  const step = unit.steps[outcome.step]!;
  unit.reject(stepFailure(step, outcome.unchanged ? outcome : { unchanged: false, error: sqlErrorFrom(outcome.error) }));
}
