import type { AnyTool } from '../../core/index.js';
import { filePatchTool } from './file-patch-tool.js';
import { fileListTool } from './file-list-tool.js';
import { fileReadTool } from './file-read-tool.js';
import { fileSearchTool } from './file-search-tool.js';
import { defaultFileToolLimits, type FileToolLimits } from './file-tool-settings.js';
import { fileWriteTool } from './file-write-tool.js';

export interface FileToolOptions {
  /** The installation's workspace folder, absolute; a run's `context.workspace` overrides it. */
  readonly workspace: string;
  readonly limits?: Partial<FileToolLimits>;
}

/**
 * The `files` tool group: read, list, search, write and patch text files in the workspace folder, all
 * through the file jail (relative paths only; no `..`, absolute paths, symlinks leading out, devices or
 * FIFOs; `.git` is never written). What the tools read is marked external: files are content from
 * outside, and dispatch wraps them as untrusted before a model sees them.
 */
export function createFileTools(options: FileToolOptions): AnyTool[] {
  const settings = { workspace: options.workspace, limits: { ...defaultFileToolLimits, ...options.limits } };
  return [fileReadTool(settings), fileListTool(settings), fileSearchTool(settings), fileWriteTool(settings), filePatchTool(settings)];
}

export { BinaryFileError, FileLineRangeError, FilePatchError, FileSearchPatternError } from './file-tool-errors.js';
export { defaultFileToolLimits, type FileToolLimits } from './file-tool-settings.js';
export type { FileListOutput } from './file-list-tool.js';
export type { FilePatchOutput } from './file-patch-tool.js';
export type { FileReadOutput } from './file-read-tool.js';
export type { FileSearchOutput } from './file-search-tool.js';
export type { FileWriteOutput } from './file-write-tool.js';
