import type { EventOf } from './events.js';

/** Where a toolbox entry stands: the statuses the `toolbox-change` event reports. */
export type ToolboxRecordStatus = EventOf<'toolbox-change'>['status'];

/**
 * The store's copy of one toolbox manifest entry. The manifest file (`FORGE_HOME/toolbox/manifest.json`)
 * is the source of truth; the toolbox writes each entry here after the file, so the store can list and
 * query tools. `entry` is the manifest entry exactly as the toolbox wrote it (the store never interprets
 * it); `name`, `status` and `updatedAt` are copies of its fields, kept as columns for lookup and listing.
 */
export interface ToolboxRecord {
  /** Unique: putting a record under a stored name replaces that record. */
  readonly name: string;
  readonly status: ToolboxRecordStatus;
  readonly entry: Readonly<Record<string, unknown>>;
  /** The entry's own last-change time (ISO-8601 UTC), not the time the store wrote it. */
  readonly updatedAt: string;
}

export interface ToolboxStore {
  /** Stores the record, or replaces the one with its name (which keeps its place in `list`). */
  put(record: ToolboxRecord): Promise<void>;
  get(name: string): Promise<ToolboxRecord | undefined>;
  /** In the order names were first put. Every record reads back exactly as it was put. */
  list(): Promise<ToolboxRecord[]>;
  /** Returns whether it existed. */
  delete(name: string): Promise<boolean>;
  /** Deletes every record (`--fresh` wipes the toolbox). */
  clear(): Promise<void>;
}
