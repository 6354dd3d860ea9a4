import type { AnyTool } from '../../core/index.js';
import { gitAddTool } from './git-add-tool.js';
import { gitCommitTool } from './git-commit-tool.js';
import { gitDiffTool } from './git-diff-tool.js';
import { gitLogTool } from './git-log-tool.js';
import { gitStatusTool } from './git-status-tool.js';
import { defaultGitIdentity, type GitToolSettings } from './git-tool-settings.js';

export interface GitToolOptions {
  /** The installation's workspace folder, absolute; a run's `context.workspace` overrides it. */
  readonly workspace: string;
  /**
   * Forge's environment. Only PATH (to find git) and FORGE_GIT_AUTHOR_NAME / FORGE_GIT_AUTHOR_EMAIL (who
   * commits; default "Forge <forge@localhost>") are read; git itself runs with none of it.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long one git command may run; default 30 seconds. */
  readonly timeoutMs?: number;
  /** Bytes of one command's output kept; default 1 MiB. */
  readonly maxOutputBytes?: number;
}

/**
 * The `git` tool group: status, diff, log, add and commit in the workspace repository. git runs without
 * a shell, with a minimal environment, a time limit and an output cap, and with hooks, fsmonitor,
 * pagers, editors, external diff and filter drivers, signing and every transport turned off, so a
 * repository's own config cannot make it run a program. What git prints is marked external.
 */
export function createGitTools(options: GitToolOptions): AnyTool[] {
  const settings: GitToolSettings = {
    workspace: options.workspace,
    path: options.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    identity: {
      name: options.env.FORGE_GIT_AUTHOR_NAME?.trim() || defaultGitIdentity.name,
      email: options.env.FORGE_GIT_AUTHOR_EMAIL?.trim() || defaultGitIdentity.email,
    },
    timeoutMs: options.timeoutMs ?? 30_000,
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
  };
  return [gitStatusTool(settings), gitDiffTool(settings), gitLogTool(settings), gitAddTool(settings), gitCommitTool(settings)];
}

export { GitCommandError, NotAGitRepositoryError, UnsafeGitRepositoryError } from './git-errors.js';
