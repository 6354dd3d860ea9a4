/** Who the commits of `git_commit` are by (author and committer alike). */
export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

/** What every git tool is made with. */
export interface GitToolSettings {
  /** The installation's workspace folder, absolute; a run's `context.workspace` overrides it. */
  readonly workspace: string;
  /** Where git is looked for: the PATH git runs with (the only variable taken from Forge's environment). */
  readonly path: string;
  readonly identity: GitIdentity;
  /** How long one git command may run before it is killed. */
  readonly timeoutMs: number;
  /** Bytes of git's output kept; the rest is read and dropped, and the result says it was cut. */
  readonly maxOutputBytes: number;
}

export const defaultGitIdentity: GitIdentity = { name: 'Forge', email: 'forge@localhost' };
