import { isDeepStrictEqual } from 'node:util';
import type { ToolboxRecord, ToolboxStore } from '../../core/index.js';
import type { ToolboxEntry } from './toolbox-entry.js';

/** What the toolbox needs of the store's copy of its manifest (`Store.toolbox`). */
export type ToolboxMirror = Pick<ToolboxStore, 'list' | 'put' | 'delete' | 'clear'>;

/** The store's record of one manifest entry: the whole entry, with the columns it is listed by. */
export function toolboxRecordOf(entry: ToolboxEntry): ToolboxRecord {
  return { name: entry.name, status: entry.status, entry, updatedAt: entry.updated_at };
}

/**
 * Makes the mirror hold exactly `entries`, the manifest, which wins every disagreement: puts each entry
 * the mirror lacks or holds differently, and deletes every record the manifest does not list. Writes
 * nothing when the two already agree.
 */
export async function syncToolboxMirror(mirror: ToolboxMirror, entries: readonly ToolboxEntry[]): Promise<void> {
  const stored = new Map((await mirror.list()).map((record) => [record.name, record]));
  for (const entry of entries) {
    const record = toolboxRecordOf(entry);
    // Structural, not textual: the file's entries come back from the schema parser with its key order.
    if (!isDeepStrictEqual(stored.get(entry.name), record)) await mirror.put(record);
    stored.delete(entry.name);
  }
  for (const name of stored.keys()) await mirror.delete(name);
}
