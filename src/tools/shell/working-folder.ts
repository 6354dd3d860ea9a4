import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ForgeError } from '../../core/index.js';

/** The `cwd` a shell call asked for is not a folder inside the workspace. */
export class ShellWorkingFolderError extends ForgeError {
  /** The cwd exactly as given; the message never names where the workspace is on the host. */
  readonly cwd: string;
  constructor(cwd: string, message: string) {
    super({
      name: 'ShellWorkingFolderError',
      message: `cwd ${JSON.stringify(cwd)} ${message}`,
      hint: 'Give cwd as an existing folder inside the workspace, relative to it (e.g. "src" or "packages/app"), without ".." segments; leave it out to run in the workspace itself.',
    });
    this.cwd = cwd;
  }
}

/**
 * The real folder a call runs in: the workspace itself, or `cwd` resolved inside it. Refused: absolute
 * paths, ".." segments, NUL bytes, and any path whose real location (symlinks resolved) is outside the
 * workspace or not a folder. The resolved path is what the shell starts in, so swapping a symlink later
 * changes nothing. This only picks where the command starts: the command itself can still `cd` anywhere.
 */
export async function workingFolder(workspaceReal: string, cwd: string | undefined): Promise<string> {
  if (cwd === undefined) return workspaceReal;
  if (cwd.includes('\0')) throw new ShellWorkingFolderError(cwd, 'contains a NUL byte.');
  if (cwd.startsWith('/')) throw new ShellWorkingFolderError(cwd, 'is absolute; it must be relative to the workspace.');
  if (cwd.split('/').includes('..')) throw new ShellWorkingFolderError(cwd, 'contains a ".." segment; it may not climb out of the workspace.');
  let real: string;
  try {
    real = await realpath(join(workspaceReal, cwd));
  } catch {
    throw new ShellWorkingFolderError(cwd, 'does not exist in the workspace.');
  }
  if (real !== workspaceReal && !real.startsWith(workspaceReal.endsWith(sep) ? workspaceReal : workspaceReal + sep)) {
    throw new ShellWorkingFolderError(cwd, 'leads (through a symlink) outside the workspace.');
  }
  if (!(await stat(real)).isDirectory()) throw new ShellWorkingFolderError(cwd, 'is not a folder.');
  return real;
}
