import { mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { ForgeError, type ToolContext } from '../core/index.js';

/** The workspace folder of the workspace tools (files, git, shell) is unusable: not absolute, or not a folder. */
export class WorkspaceFolderError extends ForgeError {
  readonly folder: string;
  constructor(folder: string, message: string) {
    super({
      name: 'WorkspaceFolderError',
      message: `The workspace folder ${JSON.stringify(folder)} ${message}`,
      hint: 'Set FORGE_WORKSPACE (or the run\'s workspace) to an absolute path of a folder Forge may create and write.',
    });
    this.folder = folder;
  }
}

/**
 * The folder a workspace tool works in for this call: the run's own (`context.workspace`) when it has
 * one, else `fallback` (the installation's FORGE_WORKSPACE). Both must be absolute; a relative one would
 * depend on the process's current folder, so it is refused.
 */
export function workspaceOf(context: Pick<ToolContext, 'workspace'>, fallback: string): string {
  const folder = context.workspace ?? fallback;
  if (!isAbsolute(folder)) throw new WorkspaceFolderError(folder, 'is not an absolute path.');
  return folder;
}

/**
 * Creates `folder` (and its parents) when it is missing and returns its real path, symlinks resolved, so
 * callers compare and confine against the place the files really are. Refuses a path that exists but is
 * not a folder.
 */
export async function ensureWorkspace(folder: string): Promise<string> {
  if (!isAbsolute(folder)) throw new WorkspaceFolderError(folder, 'is not an absolute path.');
  try {
    await mkdir(folder, { recursive: true });
    const real = await realpath(folder);
    if (!(await stat(real)).isDirectory()) throw new WorkspaceFolderError(folder, 'is not a folder.');
    return real;
  } catch (error) {
    if (error instanceof WorkspaceFolderError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new WorkspaceFolderError(folder, 'is not a folder (a file is in its place).');
    throw new WorkspaceFolderError(folder, `cannot be created or opened (${typeof code === 'string' ? code : 'unknown error'}).`);
  }
}
