import { ForgeError } from '../../core/index.js';

/** The workspace folder has no `.git` folder of its own; the git tools never look for one above it. */
export class NotAGitRepositoryError extends ForgeError {
  constructor() {
    super({
      name: 'NotAGitRepositoryError',
      message: 'The workspace folder is not a git repository: it has no .git folder of its own.',
      hint: "Run `git init` in the workspace folder (FORGE_WORKSPACE, or the run's workspace) first; the git tools never use a repository above it.",
    });
  }
}

/** The workspace holds a repository the git tools refuse to run in, because git would reach outside the workspace. */
export class UnsafeGitRepositoryError extends ForgeError {
  readonly reason: string;
  constructor(reason: string) {
    super({
      name: 'UnsafeGitRepositoryError',
      message: `The git tools do not work in this workspace's repository: ${reason}`,
      hint: 'Use a plain repository whose .git folder, objects and history all lie inside the workspace folder (e.g. a fresh `git clone` or `git init`).',
    });
    this.reason = reason;
  }
}

/** git ran and failed (or could not run); `message` holds what git said on its error output. */
export class GitCommandError extends ForgeError {
  /** The git subcommand, e.g. "commit". */
  readonly command: string;
  /** git's exit code; null when it did not exit on its own (killed at the time limit, or not started). */
  readonly exitCode: number | null;
  constructor(command: string, exitCode: number | null, detail: string, hint?: string) {
    super({
      name: 'GitCommandError',
      message: `git ${command} ${exitCode === null ? 'did not finish' : `failed (exit code ${exitCode})`}: ${detail}`,
      hint: hint ?? 'git says why above; fix that and try again (git_status shows the state of the repository).',
    });
    this.command = command;
    this.exitCode = exitCode;
  }
}
