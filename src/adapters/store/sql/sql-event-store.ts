import { NotFoundError, type EventStore, type ForgeEvent } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { insertRowSteps } from './insert-rows.js';
import { readText } from './row-values.js';
import type { SqlAccess, WriteStep } from './sql-access.js';

/**
 * Events in the `events` table, each stored whole as JSON so it reads back exactly as it was appended.
 * An event belongs to a stored run: appending one for an unknown run throws `NotFoundError`, and
 * appending a `seq` the run already has throws `DuplicateRecordError`.
 */
export class SqlEventStore implements EventStore {
  constructor(private readonly sql: SqlAccess) {}

  async append(event: ForgeEvent): Promise<void> {
    await this.appendAll([event]);
  }

  async appendAll(events: readonly ForgeEvent[]): Promise<void> {
    await this.sql.write(appendEventSteps(events));
  }

  async list(runId: string): Promise<ForgeEvent[]> {
    const result = await this.sql.read({ sql: 'SELECT body FROM events WHERE run_id = ? ORDER BY seq', args: [runId] });
    // Returned as stored, not re-validated: an event written under an older event schema must still read.
    return result.rows.map((row) => JSON.parse(readText(row, 'body')) as ForgeEvent);
  }
}

export function appendEventSteps(events: readonly ForgeEvent[]): WriteStep[] {
  if (events.length === 0) return [];
  const first = events[0]!;
  return insertRowSteps(
    'events',
    ['run_id', 'seq', 'type', 'ts', 'body'],
    events.map((event) => [event.run_id, event.seq, event.type, event.ts, JSON.stringify(event)]),
    (error) => {
      switch (constraintViolation(error)) {
        case 'unique':
          return new DuplicateRecordError('event', { runId: first.run_id, seq: first.seq });
        case 'foreign-key':
          return new NotFoundError('run', first.run_id, 'Create the run with store.runs.create before appending its events.');
        default:
          return error;
      }
    },
  );
}
