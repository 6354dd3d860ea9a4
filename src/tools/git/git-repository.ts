import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '../../core/index.js';
import { ensureWorkspace, workspaceOf } from '../workspace-folder.js';
import { NotAGitRepositoryError, UnsafeGitRepositoryError } from './git-errors.js';

/**
 * The real path of this call's workspace folder, once it is known to hold a repository git can use
 * without leaving it: `.git` is a folder right there (not a file or symlink naming a repository
 * elsewhere, as linked worktrees and submodules have), it borrows no objects or refs from another
 * repository (`objects/info/alternates`, `commondir`), and it belongs to the user Forge runs as (git's
 * own ownership check is skipped when the repository is named explicitly, as the git tools name it).
 */
export async function repositoryOf(context: Pick<ToolContext, 'workspace'>, fallback: string): Promise<string> {
  const folder = await ensureWorkspace(workspaceOf(context, fallback));
  const gitFolder = await lstat(join(folder, '.git')).catch(() => undefined);
  if (gitFolder === undefined) throw new NotAGitRepositoryError();
  if (!gitFolder.isDirectory()) throw new UnsafeGitRepositoryError('its .git is a file or symlink naming a repository elsewhere (a linked worktree or submodule).');
  const ownUser = process.getuid?.();
  if (ownUser !== undefined && gitFolder.uid !== ownUser) throw new UnsafeGitRepositoryError('its .git folder belongs to another user.');
  for (const [entry, what] of [
    ['commondir', 'it shares its objects and refs with a repository elsewhere (.git/commondir).'],
    [join('objects', 'info', 'alternates'), 'it borrows objects from other repositories (.git/objects/info/alternates).'],
  ] as const) {
    if ((await lstat(join(folder, '.git', entry)).catch(() => undefined)) !== undefined) throw new UnsafeGitRepositoryError(what);
  }
  return folder;
}
