import type { EventOf } from './events.js';

/** Where a toolbox entry stands: the statuses the `toolbox-change` event reports. */
export type ToolboxRecordStatus = EventOf<'toolbox-change'>['status'];

/**
 * One tool of the toolbox. The store is the toolbox's only source of truth: what a record says exists,
 * exists, with that status (a manifest file is only an export and import format). `entry` is the
 * toolbox's entry exactly as the toolbox wrote it, module source and test included (the store never
 * interprets it); `name`, `status` and `updatedAt` are copies of its fields, kept as columns for lookup
 * and listing. `uses` is the store's own count, never a field of `entry`.
 */
export interface ToolboxRecord {
  /** Unique: putting a record under a stored name replaces that record. */
  readonly name: string;
  readonly status: ToolboxRecordStatus;
  /**
   * What the store holds for the entry: the JSON the toolbox wrote, parsed, or the column's raw text
   * when it no longer parses (a row damaged outside Forge). The toolbox judges it; the store never does,
   * so one damaged row never keeps the others from being listed.
   */
  readonly entry: unknown;
  /** The entry's own last-change time (ISO-8601 UTC), not the time the store wrote it. */
  readonly updatedAt: string;
  /** Successful calls of the tool, counted across runs and processes by `addUse`. */
  readonly uses: number;
  /**
   * The account whose toolbox holds the tool (its runs alone are offered it), or null for the
   * installation's toolbox, offered to every run. A store column, like `uses`, never read from `entry`.
   */
  readonly owner: string | null;
}

export interface ToolboxStore {
  /**
   * Stores the record, or replaces the one with its name when that one has the same owner; a replaced
   * record keeps its place in `list` and its use count: `record.uses` is taken only when the name is new
   * (an import or a migration brings its count), so a replace never loses a use another run or process
   * counted meanwhile. Returns false, changing nothing, when the name belongs to another owner's tool
   * (decided in the same statement as the write, so two owners racing for one name never share it).
   */
  put(record: ToolboxRecord): Promise<boolean>;
  /** Moves the named tool to `owner`'s toolbox (null: the installation's). Returns whether it exists. */
  setOwner(name: string, owner: string | null): Promise<boolean>;
  get(name: string): Promise<ToolboxRecord | undefined>;
  /** In the order names were first put. Every record reads back as it was put, its use count as counted; a damaged one is listed too (see `entry`). */
  list(): Promise<ToolboxRecord[]>;
  /**
   * Counts one use of the named tool in one atomic statement (never a read then a write), so concurrent
   * calls in any number of processes each count. Returns whether the tool exists.
   */
  addUse(name: string): Promise<boolean>;
  /** Returns whether it existed. */
  delete(name: string): Promise<boolean>;
  /** Deletes every record (`--fresh` wipes the toolbox). */
  clear(): Promise<void>;
}
