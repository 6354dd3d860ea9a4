// The path-traversal attacks every file tool is tested against: the jail's own tests and the workspace
// tools' (files, git) use this one list, so a tool cannot be tested against a weaker one.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Paths that name a place outside the jail, or only look like they do: encoded and double-encoded dots,
 * overlong UTF-8, look-alike dots and slashes, absolute paths into /proc, UNC paths, `..` hidden behind
 * `.` segments. A name that only looks like a traversal is a name inside the jail; the rest is refused.
 */
export const traversalPaths: readonly string[] = [
  '%2e%2e%2foutside%2fsecret.txt',
  '%252e%252e%252foutside%252fsecret.txt',
  '..%2foutside%2fsecret.txt',
  '\u00c0\u00ae\u00c0\u00ae/outside/secret.txt',
  '\uff0e\uff0e/outside/secret.txt',
  '..\u2215outside\u2215secret.txt',
  '/proc/self/root/etc/passwd',
  '/proc/self/cwd/package.json',
  '//etc/passwd',
  '\\\\server\\share\\secret.txt',
  './../outside/secret.txt',
  'notes/./../../outside/secret.txt',
];

/** Entries planted inside a jail that lead out of it, by the relative path that uses them. */
export interface PlantedEscapes {
  /** `hop0` → `hop1` → a link outside → the secret: every link of the chain must be refused. */
  readonly symlinkChain: readonly string[];
  /**
   * Paths through a symlinked folder that points outside (`out-dir/…`), through a link to
   * `/proc/self/root` (the host's whole tree), and a dangling link whose target outside does not exist
   * yet (a write through it would create the file there).
   */
  readonly linkedPaths: readonly string[];
  /** Links to character devices and a FIFO inside the jail: reading one must neither hang nor stream. */
  readonly specialFiles: readonly string[];
  /** Where the dangling link points: must still not exist after the attack. */
  readonly danglingTarget: string;
}

/**
 * Plants the escapes inside `jailRoot`. `outside` is a folder outside the jail holding `secret.txt`;
 * one link of the chain is placed there, as an attacker's link outside would be.
 */
export async function plantEscapes(jailRoot: string, outside: string): Promise<PlantedEscapes> {
  const secret = join(outside, 'secret.txt');
  await symlink(secret, join(outside, 'hop2'));
  await symlink(join(outside, 'hop2'), join(jailRoot, 'hop1'));
  await symlink('hop1', join(jailRoot, 'hop0'));
  await symlink(outside, join(jailRoot, 'out-dir'));
  await symlink('/proc/self/root', join(jailRoot, 'proc-root'));
  const danglingTarget = join(outside, 'created-by-attack.txt');
  await symlink(danglingTarget, join(jailRoot, 'dangling'));
  await symlink('/dev/zero', join(jailRoot, 'zero'));
  await symlink('/dev/urandom', join(jailRoot, 'random'));
  execFileSync('mkfifo', [join(jailRoot, 'pipe')]);
  return {
    symlinkChain: ['hop0', 'hop1'],
    linkedPaths: ['out-dir/secret.txt', 'out-dir/new.txt', `proc-root${secret}`, 'dangling'],
    specialFiles: ['zero', 'random', 'pipe'],
    danglingTarget,
  };
}

/**
 * Every entry under `folder` (symlinks not followed) with its type, size, modification time and, for
 * files and links, a digest of what they hold: equal snapshots mean nothing there was created, removed or
 * changed.
 */
export async function snapshotTree(folder: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  const visit = async (location: string): Promise<void> => {
    const info = await lstat(location);
    const key = relative(folder, location) || '.';
    if (info.isSymbolicLink()) {
      snapshot[key] = `link:${await readlink(location)}`;
    } else if (info.isFile()) {
      snapshot[key] = `file:${info.size}:${info.mtimeMs}:${createHash('sha256').update(await readFile(location)).digest('hex')}`;
    } else if (info.isDirectory()) {
      snapshot[key] = `folder:${info.mtimeMs}`;
      for (const name of await readdir(location)) await visit(join(location, name));
    } else {
      snapshot[key] = `other:${info.mode}`;
    }
  };
  await visit(folder);
  return snapshot;
}
