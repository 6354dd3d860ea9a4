import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import type { FileToolSettings } from './file-tool-settings.js';
import { workspaceJail } from './workspace-jail.js';

export interface FileWriteOutput {
  readonly path: string;
  /** The UTF-8 bytes the file now holds. */
  readonly bytes: number;
}

const inputSchema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace folder; missing folders on the way are created.'),
  content: z.string().describe('The whole new text of the file (UTF-8); an existing file is replaced.'),
});

/** `file_write({path, content})`: creates or replaces a text file in the workspace. */
export function fileWriteTool(settings: FileToolSettings) {
  return defineTool({
    name: 'file_write',
    description:
      'Create or replace a text file in the workspace folder with the given content, creating missing folders. ' +
      'To change part of an existing file, file_patch is safer. Files inside .git cannot be written.',
    inputSchema,
    risk: 'medium',
    sideEffect: 'write',
    async execute(input, context): Promise<FileWriteOutput> {
      const path = plainRelativePath(input.path);
      const jail = await workspaceJail(context, settings);
      await jail.writeFile(path, input.content);
      return { path, bytes: Buffer.byteLength(input.content, 'utf8') };
    },
  });
}
