import { FileJailError, type FileJail, type FileJailEntry } from '../../security/index.js';

/** One entry met on a walk, by its path relative to the workspace. */
export interface WalkedEntry {
  readonly path: string;
  readonly type: FileJailEntry['type'];
}

/** A walk under way: its entries, and the folders below the start it could not list, with why. */
export interface FolderWalk {
  readonly entries: AsyncIterable<WalkedEntry>;
  readonly skipped: readonly string[];
}

/**
 * Walks `folder` breadth first (a capped walk shows the top of the tree, not one deep corner), each
 * folder's entries sorted by name. Symlinks are reported, never followed; `.git` is reported but not
 * entered (git's own files are noise in a listing or a search). The start folder must be listable (its
 * refusal is thrown); a folder below it that is not (too large, unreadable) is noted in `skipped` and
 * the walk goes on. A cancelled run ends the walk with the jail's `aborted` refusal.
 */
export function walkFolder(jail: FileJail, folder: string, depth: 'recursive' | 'one-level'): FolderWalk {
  const skipped: string[] = [];
  async function* entries(): AsyncGenerator<WalkedEntry> {
    const queue = [folder];
    for (let index = 0; index < queue.length; index++) {
      const current = queue[index]!;
      let listed: FileJailEntry[];
      try {
        listed = await jail.list(current);
      } catch (error) {
        if (index === 0 || !(error instanceof FileJailError) || error.reason === 'aborted') throw error;
        skipped.push(error.message);
        continue;
      }
      for (const entry of listed) {
        const path = current === '.' ? entry.name : `${current}/${entry.name}`;
        yield { path, type: entry.type };
        if (depth === 'recursive' && entry.type === 'directory' && entry.name !== '.git') queue.push(path);
      }
    }
  }
  return { entries: entries(), skipped };
}
