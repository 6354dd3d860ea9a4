import { mkdir, realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { ConfigurationError, type ToolContext } from '../../core/index.js';

// The shell tool's own copy of the workspace helpers the files tools bring as src/tools/workspace-folder.ts
// (same names and contracts); once that module is on main, this file gives way to it.

/** The folder a workspace tool works in for this call: the run's own, else the installation's. */
export function workspaceOf(context: Pick<ToolContext, 'workspace'>, fallback: string): string {
  const folder = context.workspace ?? fallback;
  if (!isAbsolute(folder)) throw new ConfigurationError('FORGE_WORKSPACE', `the workspace folder ${JSON.stringify(folder)} is not an absolute path.`, 'Set FORGE_WORKSPACE (or the run\'s workspace) to an absolute path.');
  return folder;
}

/** Creates the folder (and its parents) when missing; returns its real path, symlinks resolved. */
export async function ensureWorkspace(folder: string): Promise<string> {
  try {
    await mkdir(folder, { recursive: true });
    return await realpath(folder);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigurationError(
      'FORGE_WORKSPACE',
      `the workspace folder ${JSON.stringify(folder)} cannot be created or opened (${typeof code === 'string' ? code : 'unknown error'}).`,
      'Set FORGE_WORKSPACE (or the run\'s workspace) to a folder Forge may create and write.',
    );
  }
}
