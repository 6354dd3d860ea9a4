import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { ToolboxStore } from '../../core/index.js';
import { ToolboxManifestError } from './toolbox-errors.js';
import { parseToolboxManifest } from './toolbox-manifest.js';
import { toolboxRecordOf } from './toolbox-record.js';

/** What `migrateToolboxManifest` did with the manifest file an older Forge kept the toolbox in. */
export interface ToolboxManifestMigration {
  /** The manifest that was found. */
  readonly file: string;
  /** Where it was moved, so it is never read again. */
  readonly movedTo: string;
  /** How many tools it brought into the store; 0 when the store already held the toolbox and the file was only set aside. */
  readonly imported: number;
  /** Why nothing was imported from a manifest that cannot be read (it was set aside as `movedTo`); null when it was read. */
  readonly problem: ToolboxManifestError | null;
}

/**
 * The migration from the Forge that kept the toolbox in `folder/manifest.json` (with the store as its
 * mirror) to the store as the toolbox's only truth. Runs on every open and does something at most once:
 * - no manifest: nothing to do (null);
 * - a manifest and a store without tools: every entry is put into the store, use counts included, and
 *   the file is renamed `manifest.json.migrated`; from a broken manifest nothing is imported, and it is
 *   set aside as `manifest.json.unreadable` with the `ToolboxManifestError` as `problem`, so it blocks
 *   no command (the toolbox starts empty) and can be fixed and brought in with `forge tools import`;
 * - a manifest and a store that already holds tools (the mirror the older Forge kept of that very file):
 *   the store is the truth, and the file is only renamed, unread.
 * Renamed, not deleted, so nothing a person kept is lost, and never read again, so a toolbox emptied
 * later (`--fresh`) does not come back from it. Two processes migrating at once put the same entries
 * (a put of a known name keeps its count), and the later rename finds the file gone, which is fine.
 */
export async function migrateToolboxManifest(folder: string, store: ToolboxStore): Promise<ToolboxManifestMigration | null> {
  const file = path.join(folder, 'manifest.json');
  const text = await readIfPresent(file);
  if (text === undefined) return null;
  let imported = 0;
  let problem: ToolboxManifestError | null = null;
  if ((await store.list()).length === 0) {
    try {
      const manifest = parseToolboxManifest(text, file);
      for (const entry of manifest.tools) await store.put(toolboxRecordOf(entry));
      imported = manifest.tools.length;
    } catch (error) {
      if (!(error instanceof ToolboxManifestError)) throw error;
      problem = error;
    }
  }
  const movedTo = `${file}.${problem === null ? 'migrated' : 'unreadable'}`;
  try {
    await rename(file, movedTo);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { file, movedTo, imported, problem };
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
