import { mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
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

/** What an account or agent id must look like to name a folder: never a path, never `.` or `..`. */
const FOLDER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The workspace of a run: the installation's `root` for the operator's runs (the CLI, a server
 * without accounts), `root/accounts/<account id>` for an account's, so no account's files are in
 * another's; an agent whose definition keeps its own workspace works in `agents/<slug>` under that.
 * The workspace tools are jailed to it, and the shell sees no other account's folder.
 */
export function runWorkspace(root: string, owner: { readonly accountId: string | null; readonly agentSlug?: string }): string {
  const account = owner.accountId === null ? root : join(root, 'accounts', folderName(owner.accountId, 'account id'));
  return owner.agentSlug === undefined ? account : join(account, 'agents', folderName(owner.agentSlug, 'agent slug'));
}

function folderName(name: string, what: string): string {
  if (!FOLDER_NAME_PATTERN.test(name)) throw new WorkspaceFolderError(name, `is not an ${what} that can name a workspace folder.`);
  return name;
}
