import { setTimeout as delay } from 'node:timers/promises';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { isBusy, type SqliteConnection } from './sqlite-core.mjs';

/**
 * Opens a write transaction (`BEGIN IMMEDIATE`) on a main-thread connection, waiting with timers
 * while another process holds the write lock, so the event loop is never blocked by the wait; fails
 * with `StoreUnavailableError` after `timeoutMs`.
 */
export async function beginWrite(connection: SqliteConnection, timeoutMs: number): Promise<void> {
  await retryWhileBusy(() => connection.execute('BEGIN IMMEDIATE'), timeoutMs, "another process held the database's write lock");
}

/** Runs `work` (a synchronous database call) again, after a short pause, for as long as the database is busy. */
export async function retryWhileBusy<T>(work: () => T, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) throw busyFailure(what, timeoutMs);
      await delay(Math.min(50, 1 + attempt * 5));
    }
  }
}

/** The error for a lock another process held past the timeout. */
export function busyFailure(what: string, timeoutMs: number): StoreUnavailableError {
  return new StoreUnavailableError(`${what} for more than ${timeoutMs} ms`, 'Stop the process that holds it (another Forge command, or a program with the database open), then retry.');
}
