import type { ToolboxRecord } from '../../core/index.js';
import { toolboxEntrySchema, type ToolboxEntry } from './toolbox-entry.js';
import { ToolboxEntryError } from './toolbox-errors.js';

/**
 * The store's record of one entry: the whole entry but its use count and owner, which the store keeps
 * (and counts) in columns of their own, with the columns it is listed by.
 */
export function toolboxRecordOf(entry: ToolboxEntry): ToolboxRecord {
  const { uses, owner, ...counted } = entry;
  return { name: entry.name, status: entry.status, entry: counted, updatedAt: entry.updated_at, uses, owner };
}

/**
 * The entry a stored record holds, with the store's use count (a count left in the entry's JSON by an
 * older Forge is never read). A record that is not a whole entry is a `ToolboxEntryError` naming it.
 */
export function toolboxEntryOf(record: ToolboxRecord): ToolboxEntry {
  if (typeof record.entry !== 'object' || record.entry === null || Array.isArray(record.entry)) {
    throw new ToolboxEntryError(record.name, [typeof record.entry === 'string' ? 'its stored JSON does not parse' : 'it is not a JSON object']);
  }
  const parsed = toolboxEntrySchema.safeParse({ ...record.entry, uses: record.uses, owner: record.owner });
  if (!parsed.success) throw new ToolboxEntryError(record.name, parsed.error.issues.map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`));
  if (parsed.data.name !== record.name) throw new ToolboxEntryError(record.name, [`it names itself "${parsed.data.name}"`]);
  return parsed.data;
}
