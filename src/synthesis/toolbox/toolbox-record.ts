import type { ToolboxRecord } from '../../core/index.js';
import type { ToolboxEntry } from './toolbox-entry.js';

/**
 * The store's record of one entry: the whole entry but its use count, which the store keeps (and
 * counts) in a column of its own, with the columns it is listed by.
 */
export function toolboxRecordOf(entry: ToolboxEntry): ToolboxRecord {
  const { uses, ...counted } = entry;
  return { name: entry.name, status: entry.status, entry: counted, updatedAt: entry.updated_at, uses };
}

/** The entry a stored record holds, with the store's use count (a count left in the entry's JSON by an older Forge is never read). */
export function toolboxEntryOf(record: ToolboxRecord): ToolboxEntry {
  return { ...(record.entry as Omit<ToolboxEntry, 'uses'>), uses: record.uses };
}
