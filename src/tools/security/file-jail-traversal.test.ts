import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileJail, FileJailError } from './file-jail.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'forge-jail-traversal-'));
  root = join(base, 'jail');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** What a jailed operation gave: its value, or the refusal's reason. Never the secret. */
async function attempt(operation: Promise<unknown>): Promise<string> {
  try {
    const value = await operation;
    return `value:${JSON.stringify(value)}`;
  } catch (error) {
    if (error instanceof FileJailError) return `refused:${error.reason}`;
    throw error;
  }
}

/**
 * The path-traversal list every file tool must withstand: encoded and double-encoded dots, overlong
 * UTF-8, absolute paths into /proc, symlink chains, and special files. A name that only looks like a
 * traversal is a name inside the jail; anything that would reach outside is refused; nothing blocks.
 */
describe('the file jail against a traversal list', () => {
  const names = [
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

  it.each(names)('%j reads nothing outside, and writes nothing outside', async (path) => {
    const jail = createFileJail(root);
    const read = await attempt(jail.readFile(path));
    expect(read).not.toContain('top secret');
    await attempt(jail.writeFile(path, 'overwritten'));
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(execFileSync('find', [outside, '-newer', join(outside, 'secret.txt')], { encoding: 'utf8' }).trim()).toBe('');
  });

  it('refuses a chain of symlinks that ends outside, at every link', async () => {
    await symlink(join(outside, 'secret.txt'), join(base, 'hop2'));
    await symlink(join(base, 'hop2'), join(root, 'hop1'));
    await symlink('hop1', join(root, 'hop0'));
    const jail = createFileJail(root);
    for (const path of ['hop0', 'hop1']) {
      expect(await attempt(jail.readFile(path))).toMatch(/^refused:/);
      expect(await attempt(jail.writeFile(path, 'overwritten'))).toMatch(/^refused:/);
    }
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses device files and FIFOs instead of reading them (no endless read, no hang)', async () => {
    await symlink('/dev/zero', join(root, 'zero'));
    await symlink('/dev/urandom', join(root, 'random'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const jail = createFileJail(root);
    expect(await attempt(jail.readFile('zero'))).toMatch(/^refused:/);
    expect(await attempt(jail.readFile('random'))).toMatch(/^refused:/);
    expect(await attempt(jail.readFile('pipe'))).toMatch(/^refused:/);
    expect(await attempt(jail.writeFile('pipe', 'x'))).toMatch(/^refused:/);
  });
});
