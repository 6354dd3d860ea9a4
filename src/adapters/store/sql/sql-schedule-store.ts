import type { ClaimedSlot, NewSchedule, ScheduleRecord, ScheduleStore } from '../../../core/index.js';
import type { SqlDialect } from '../migrations/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { readNullableNumber, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const columns = 'id, name, every_ms, request, next_due_ms, last_fired_ms, enabled, created_at';

/**
 * Schedules in `schedules`. A claim is one UPDATE over the due rows its subquery picks: the latest slot
 * at or before now becomes `last_fired_ms` and the next one after it `next_due_ms`, computed from the
 * row's old values, so a row is claimed by exactly one writer per slot (see `SqlDialect.skipLockedRows`).
 * Now is cast to an integer first: a bound JS number may reach SQLite as a REAL, and the division must
 * be whole.
 */
export class SqlScheduleStore implements ScheduleStore {
  constructor(
    private readonly sql: SqlAccess,
    private readonly dialect: SqlDialect,
  ) {}

  async create(schedule: NewSchedule): Promise<ScheduleRecord> {
    const record: ScheduleRecord = { id: schedule.id, name: schedule.name, everyMs: schedule.everyMs, request: schedule.request, nextDueMs: schedule.firstDueMs, lastFiredMs: null, enabled: true, createdAt: new Date().toISOString() };
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO schedules (${columns}) VALUES (?, ?, ?, ?, ?, NULL, 1, ?)`,
          args: [record.id, record.name, record.everyMs, JSON.stringify(record.request), record.nextDueMs, record.createdAt],
        },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('schedule', { name: record.name }) : error),
      },
    ]);
    return record;
  }

  async get(id: string): Promise<ScheduleRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${columns} FROM schedules WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async list(): Promise<ScheduleRecord[]> {
    const result = await this.sql.read(`SELECT ${columns} FROM schedules ORDER BY name`);
    return result.rows.map(fromRow);
  }

  async setEnabled(id: string, enabled: boolean): Promise<ScheduleRecord | undefined> {
    const [result] = await this.sql.write([{ statement: { sql: `UPDATE schedules SET enabled = ? WHERE id = ? RETURNING ${columns}`, args: [enabled ? 1 : 0, id] } }]);
    const row = result!.rows[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async delete(id: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM schedules WHERE id = ?', args: [id] } }]);
    return result!.rowsAffected === 1;
  }

  async claimDue(nowMs: number, limit: number): Promise<ClaimedSlot[]> {
    const now = Math.floor(nowMs);
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE schedules
                SET last_fired_ms = next_due_ms + every_ms * ((CAST(? AS BIGINT) - next_due_ms) / every_ms),
                    next_due_ms = next_due_ms + every_ms * ((CAST(? AS BIGINT) - next_due_ms) / every_ms + 1)
                WHERE id IN (SELECT id FROM schedules WHERE enabled = 1 AND next_due_ms <= CAST(? AS BIGINT) ORDER BY next_due_ms, id LIMIT ?${this.dialect.skipLockedRows})
                RETURNING ${columns}`,
          args: [now, now, now, Math.max(0, Math.floor(limit))],
        },
      },
    ]);
    return result!.rows.map(fromRow).map((schedule) => ({ schedule, slotMs: schedule.lastFiredMs! })).sort((a, b) => a.slotMs - b.slotMs || a.schedule.id.localeCompare(b.schedule.id));
  }
}

function fromRow(row: SqlRow): ScheduleRecord {
  return {
    id: readText(row, 'id'),
    name: readText(row, 'name'),
    everyMs: readNumber(row, 'every_ms'),
    request: JSON.parse(readText(row, 'request')) as unknown,
    nextDueMs: readNumber(row, 'next_due_ms'),
    lastFiredMs: readNullableNumber(row, 'last_fired_ms'),
    enabled: readNumber(row, 'enabled') === 1,
    createdAt: readText(row, 'created_at'),
  };
}
