import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { type SqlAccess, type SqlResult, type SqlStatement, type WriteStep, stepFailure, type StepOutcome } from '../sql/index.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { runStatement } from './postgres-statement.js';

/** How often a unit that lost a race with concurrent writes is run again before the caller hears of it. */
const ATTEMPTS = 30;
/** SQLSTATEs of a transaction PostgreSQL aborted for a concurrent one's sake: nothing of it was kept, and running it again is safe. */
const RETRIABLE = new Set(['40001', '40P01']);

/** How a unit ended on its connection: committed with each step's result, or failed at one step (and rolled back). */
type UnitOutcome = { readonly ok: true; readonly results: SqlResult[] } | ({ readonly ok: false; readonly step: number } & StepOutcome);

/**
 * `SqlAccess` on a pool of PostgreSQL connections. A read runs on any free connection. A write unit
 * runs in one transaction on one connection, at SERIALIZABLE isolation: every unit behaves as if it
 * ran alone, as it does under SQLite's write lock, so what a table store computes inside its unit (the
 * next message position, the next policy version) holds against every other process's writes. A unit
 * PostgreSQL aborts for a concurrent one (serialization failure, deadlock) is run again, after a short
 * random pause, up to 30 times; a step that fails rolls the whole unit back, its error mapped by the
 * step. `failure` turns what the driver throws into the error callers get.
 */
export class PostgresSqlAccess implements SqlAccess {
  private closing: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly failure: (error: unknown) => unknown,
  ) {}

  async read(statement: SqlStatement | string): Promise<SqlResult> {
    this.assertOpen();
    try {
      return await runStatement(this.pool, typeof statement === 'string' ? { sql: statement } : statement);
    } catch (error) {
      throw this.failure(error);
    }
  }

  async readTogether(statements: readonly SqlStatement[]): Promise<SqlResult[]> {
    if (statements.length === 0) return [];
    // One snapshot for all of them: a read-only transaction at REPEATABLE READ never waits and never fails for a writer.
    return this.onConnection(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const results: SqlResult[] = [];
      for (const statement of statements) results.push(await runStatement(client, statement));
      await client.query('COMMIT');
      return results;
    });
  }

  async write(steps: readonly WriteStep[]): Promise<SqlResult[]> {
    this.assertOpen();
    if (steps.length === 0) return [];
    for (let attempt = 1; ; attempt += 1) {
      let outcome: UnitOutcome;
      try {
        outcome = await this.onConnection((client) => commitUnit(client, steps));
      } catch (error) {
        // A COMMIT can be the statement PostgreSQL aborts for a concurrent unit's sake.
        if (isRetriable(error) && attempt < ATTEMPTS) {
          await pause(attempt);
          continue;
        }
        throw isRetriable(error) ? conflictedTooOften(error) : error;
      }
      if (outcome.ok) return outcome.results;
      if (!outcome.unchanged && isRetriable(outcome.error) && attempt < ATTEMPTS) {
        await pause(attempt);
        continue;
      }
      if (!outcome.unchanged && isRetriable(outcome.error)) throw conflictedTooOften(outcome.error);
      throw stepFailure(steps[outcome.step]!, outcome.unchanged ? outcome : { unchanged: false, error: this.failure(outcome.error) });
    }
  }

  /** Every write is a transaction of its own here, sent at once: nothing gathers to wait behind. */
  writeNow(steps: readonly WriteStep[]): Promise<SqlResult[]> {
    return this.write(steps);
  }

  /**
   * Runs `work` on one connection of the pool, given back afterwards; a connection that failed outside
   * a statement's own error (cut, or left in an unknown transaction state) is closed instead. Errors
   * come out through `failure`.
   */
  async onConnection<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.assertOpen();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failure(error);
    }
    // A connection that dies between two statements reports it as an event; the next statement fails with it anyway.
    const ignore = () => undefined;
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      broken = await rolledBack(client, error);
      throw this.failure(error);
    } finally {
      client.off('error', ignore);
      client.release(broken);
    }
  }

  /** Lets what is in flight finish, then closes every connection; later operations fail with `StoreUnavailableError`. Closing again waits for the same close. */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new StoreUnavailableError('the store is closed', 'Open the store again before using it.');
  }
}

/** Runs the unit's steps in one SERIALIZABLE transaction; a failing step (or one that had to change a row and did not) rolls it all back. */
async function commitUnit(client: pg.PoolClient, steps: readonly WriteStep[]): Promise<UnitOutcome> {
  await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
  const results: SqlResult[] = [];
  for (const [index, step] of steps.entries()) {
    let result: SqlResult;
    try {
      result = await runStatement(client, step.statement);
    } catch (error) {
      await client.query('ROLLBACK');
      return { ok: false, step: index, unchanged: false, error };
    }
    if (step.ifUnchanged !== undefined && result.rowsAffected === 0 && result.rows.length === 0) {
      await client.query('ROLLBACK');
      return { ok: false, step: index, unchanged: true };
    }
    results.push(result);
  }
  await client.query('COMMIT');
  return { ok: true, results };
}

/**
 * Ends whatever transaction `work` left open after `error`. Returns the error to close the connection
 * with when the connection itself failed (or the rollback did), undefined when it can go back to the pool.
 */
async function rolledBack(client: pg.PoolClient, error: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function isRetriable(error: unknown): boolean {
  return RETRIABLE.has((error as { code?: unknown } | null)?.code as string);
}

async function pause(attempt: number): Promise<void> {
  await delay(1 + Math.random() * Math.min(50, 2 ** attempt));
}

function conflictedTooOften(error: unknown): StoreUnavailableError {
  const unavailable = new StoreUnavailableError(
    `it was aborted ${ATTEMPTS} times in a row by concurrent writes to the same records`,
    'Retry; if it keeps happening, fewer processes or runs should write the same records at once.',
  );
  return Object.assign(unavailable, { cause: error });
}
