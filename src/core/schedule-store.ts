/**
 * Work that fires on its own, every `everyMs` (deployments build on it): what it runs is a run request
 * as data (`request`, the same JSON a worker's job carries), parsed where it fires.
 */
export interface ScheduleRecord {
  readonly id: string;
  readonly name: string;
  readonly everyMs: number;
  readonly request: unknown;
  /** When it fires next, epoch milliseconds. */
  readonly nextDueMs: number;
  /** When it last fired (the slot it fired for), epoch milliseconds; null before its first. */
  readonly lastFiredMs: number | null;
  readonly enabled: boolean;
  readonly createdAt: string;
}

export type NewSchedule = Pick<ScheduleRecord, 'id' | 'name' | 'everyMs' | 'request'> & { readonly firstDueMs: number };

/** One firing a process claimed: the schedule as it stood, and the slot (the due time it fires for). */
export interface ClaimedSlot {
  readonly schedule: ScheduleRecord;
  readonly slotMs: number;
}

/** The `schedules` aggregate. */
export interface ScheduleStore {
  /** Refuses a taken id or name (`DuplicateRecordError`). */
  create(schedule: NewSchedule): Promise<ScheduleRecord>;
  get(id: string): Promise<ScheduleRecord | undefined>;
  /** By name. */
  list(): Promise<ScheduleRecord[]>;
  setEnabled(id: string, enabled: boolean): Promise<ScheduleRecord | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Claims the enabled schedules due at `nowMs` (the soonest first, at most `limit`) in one atomic step:
   * each one's next due time moves past `nowMs` by whole intervals (slots missed while nobody claimed
   * fire once, as the latest), so several processes claiming at once never fire the same slot twice
   * (compare-and-set on libSQL, `FOR UPDATE SKIP LOCKED` on PostgreSQL).
   */
  claimDue(nowMs: number, limit: number): Promise<ClaimedSlot[]>;
}
