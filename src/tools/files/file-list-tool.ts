import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import type { FileToolSettings } from './file-tool-settings.js';
import { walkFolder, type WalkedEntry } from './folder-walk.js';
import { workspaceJail } from './workspace-jail.js';

/** What `file_list` returns: entries by path relative to the workspace, so each can be passed on as it is. */
export interface FileListOutput {
  readonly path: string;
  readonly truncated: boolean;
  readonly truncation?: string;
  /** Folders below `path` that could not be listed, and why. */
  readonly skipped?: readonly string[];
  readonly entries: readonly WalkedEntry[];
}

const inputSchema = z.object({
  path: z.string().default('.').describe('The folder, relative to the workspace folder; default "." (the workspace itself).'),
  recursive: z.boolean().default(false).describe('List the folders inside too (breadth first; symlinks are not followed, .git is not entered).'),
  max_entries: z.number().int().min(1).max(1000).default(200).describe('The most entries to return (default 200, at most 1000).'),
});

/** `file_list({path?, recursive?, max_entries?})`: what a workspace folder holds. */
export function fileListTool(settings: FileToolSettings) {
  return defineTool({
    name: 'file_list',
    description:
      'List a folder of the workspace: each entry with its path relative to the workspace and its type (file, directory, symlink, other). ' +
      'recursive lists the folders inside too, nearest first; at most max_entries come back, and the result says when there were more.',
    inputSchema,
    risk: 'low',
    sideEffect: 'read',
    // File names are content from outside as surely as the files are.
    external: true,
    async execute(input, context): Promise<FileListOutput> {
      const path = plainRelativePath(input.path);
      const walk = walkFolder(await workspaceJail(context, settings), path, input.recursive ? 'recursive' : 'one-level');
      const entries: WalkedEntry[] = [];
      let truncated = false;
      for await (const entry of walk.entries) {
        if (entries.length === input.max_entries) {
          truncated = true;
          break;
        }
        entries.push(entry);
      }
      const skipped = walk.skipped.length === 0 ? {} : { skipped: walk.skipped };
      return truncated
        ? { path, truncated, truncation: `more than ${input.max_entries} entries; showing the first ${input.max_entries}. List a folder inside, or raise max_entries.`, ...skipped, entries }
        : { path, truncated, ...skipped, entries };
    },
  });
}
