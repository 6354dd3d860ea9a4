import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import { BinaryFileError, FilePatchError } from './file-tool-errors.js';
import type { FileToolSettings } from './file-tool-settings.js';
import { workspaceJail } from './workspace-jail.js';

export interface FilePatchOutput {
  readonly path: string;
  /** How many occurrences of `old` were replaced. */
  readonly replacements: number;
}

const inputSchema = z.object({
  path: z.string().min(1).describe('The text file to change, relative to the workspace folder.'),
  old: z.string().min(1).describe('The exact text to replace, spaces and line breaks included; it must occur exactly once unless all is true.'),
  new: z.string().describe('The text to put in its place (empty to delete it).'),
  all: z.boolean().default(false).describe('Replace every occurrence instead of requiring exactly one.'),
});

/** `file_patch({path, old, new, all?})`: replaces exact text in a workspace file, refusing an ambiguous match. */
export function filePatchTool(settings: FileToolSettings) {
  return defineTool({
    name: 'file_patch',
    description:
      'Change part of a text file in the workspace: replace the exact text old with new. old must occur exactly once (include surrounding lines to make it unique), ' +
      'or set all to replace every occurrence; otherwise nothing is changed and the error says how many times old occurs.',
    inputSchema,
    risk: 'medium',
    sideEffect: 'write',
    async execute(input, context): Promise<FilePatchOutput> {
      const path = plainRelativePath(input.path);
      const jail = await workspaceJail(context, settings);
      const text = await jail.readFile(path);
      if (text.includes('\0')) throw new BinaryFileError(path);
      const pieces = text.split(input.old);
      const occurrences = pieces.length - 1;
      if (occurrences === 0 || (occurrences > 1 && !input.all)) throw new FilePatchError(path, occurrences);
      // Joined by hand: String.prototype.replace would read "$&" and the like in the new text as patterns.
      await jail.writeFile(path, pieces.join(input.new));
      return { path, replacements: occurrences };
    },
  });
}
