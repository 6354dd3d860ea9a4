import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Why this home is the one used, from the strongest reason down. */
export type HomeSource = 'environment' | 'project-file' | 'project-folder' | 'user-default';

export interface ForgeHome {
  /** Absolute path of the data folder. */
  readonly path: string;
  readonly source: HomeSource;
  /** One sentence a person can read: why this folder. */
  readonly reason: string;
}

function isFolder(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/** The user's home folder: `HOME` from `env` when set (so tests and sandboxes can move it), else the system's. */
export function userHomeFolder(env: Environment): string {
  return env['HOME']?.trim() || homedir();
}

/**
 * Chooses the Forge home: `FORGE_HOME` when set; else `home` in the project's `forge.config.json`;
 * else a project-local `./.forge` when that folder exists; else `~/.forge`. Relative paths resolve
 * against `cwd`. Nothing is created here.
 */
export function resolveForgeHome(env: Environment, cwd: string, projectHome: string | undefined, projectFile: string): ForgeHome {
  const fromEnvironment = env['FORGE_HOME']?.trim();
  if (fromEnvironment) return { path: path.resolve(cwd, fromEnvironment), source: 'environment', reason: 'FORGE_HOME is set in the environment' };
  if (projectHome !== undefined) return { path: path.resolve(cwd, projectHome), source: 'project-file', reason: `"home" is set in ${projectFile}` };
  const local = path.resolve(cwd, '.forge');
  if (isFolder(local)) return { path: local, source: 'project-folder', reason: `a project-local .forge folder exists in ${cwd}` };
  return { path: path.join(userHomeFolder(env), '.forge'), source: 'user-default', reason: 'the default: FORGE_HOME is not set and there is no ./.forge here' };
}
