import { readdirSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileJail, FileJailError, plainRelativePath, type FileJailRefusal } from './file-jail.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'forge-jail-'));
  root = join(base, 'jail');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(operation: Promise<unknown>): Promise<{ reason: FileJailRefusal; message: string }> {
  const error = await operation.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FileJailError)) throw new Error(`expected a FileJailError, got ${String(error)}`);
  return { reason: error.reason, message: error.message };
}

describe('createFileJail', () => {
  it('writes, reads and lists text files inside its folder, creating parent folders', async () => {
    const jail = createFileJail(root);
    await jail.writeFile('notes/today.txt', 'hello jail');
    await jail.writeFile('a.txt', 'first');

    expect(await jail.readFile('notes/today.txt')).toBe('hello jail');
    expect(await jail.readFile('./notes//today.txt')).toBe('hello jail');
    expect(await readFile(join(root, 'notes', 'today.txt'), 'utf8')).toBe('hello jail');
    expect(await jail.list()).toEqual([
      { name: 'a.txt', type: 'file' },
      { name: 'notes', type: 'directory' },
    ]);
    expect(await jail.list('notes')).toEqual([{ name: 'today.txt', type: 'file' }]);
  });

  it('creates its folder on the first write and reports a missing folder on reads', async () => {
    const jail = createFileJail(join(base, 'fresh'));
    expect((await refusal(jail.list())).reason).toBe('not-found');
    await jail.writeFile('x.txt', 'x');
    expect(await jail.readFile('x.txt')).toBe('x');
  });

  it.each([
    ['/etc/passwd', 'absolute-path'],
    ['C:/Windows/win.ini', 'absolute-path'],
    ['../outside/secret.txt', 'parent-segment'],
    ['notes/../../outside/secret.txt', 'parent-segment'],
    ['notes/..', 'parent-segment'],
    ['..\\outside\\secret.txt', 'invalid-path'],
    ['secret.txt\0.png', 'nul-byte'],
    ['', 'invalid-path'],
  ] as const)('refuses %j as %s for reads and writes', async (path, reason) => {
    const jail = createFileJail(root);
    expect((await refusal(jail.readFile(path))).reason).toBe(reason);
    expect((await refusal(jail.writeFile(path, 'overwritten'))).reason).toBe(reason);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses to read, list or overwrite through a symlink to a file outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const jail = createFileJail(root);

    expect((await refusal(jail.readFile('link.txt'))).reason).toBe('outside-jail');
    expect((await refusal(jail.writeFile('link.txt', 'pwned'))).reason).toBe('outside-jail');
    expect((await refusal(jail.list('link.txt'))).reason).toBe('outside-jail');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses to read, list or write inside a symlinked folder that points outside', async () => {
    await symlink(outside, join(root, 'door'));
    const jail = createFileJail(root);

    expect((await refusal(jail.readFile('door/secret.txt'))).reason).toBe('outside-jail');
    expect((await refusal(jail.list('door'))).reason).toBe('outside-jail');
    expect((await refusal(jail.writeFile('door/planted.txt', 'pwned'))).reason).toBe('outside-jail');
    expect((await refusal(jail.writeFile('door/deeper/planted.txt', 'pwned'))).reason).toBe('outside-jail');
    await expect(stat(join(outside, 'planted.txt'))).rejects.toThrow();
    await expect(stat(join(outside, 'deeper'))).rejects.toThrow();
  });

  it('refuses to write through a dangling symlink whose target would be created outside', async () => {
    await symlink(join(outside, 'created-by-guest.txt'), join(root, 'dangling.txt'));
    const jail = createFileJail(root);

    expect((await refusal(jail.writeFile('dangling.txt', 'pwned'))).reason).toBe('outside-jail');
    await expect(stat(join(outside, 'created-by-guest.txt'))).rejects.toThrow();
  });

  it('follows symlinks that stay inside the folder', async () => {
    const jail = createFileJail(root);
    await jail.writeFile('data/real.txt', 'inside');
    await symlink(join(root, 'data'), join(root, 'alias'));
    await symlink(join(root, 'data', 'real.txt'), join(root, 'shortcut.txt'));

    expect(await jail.readFile('alias/real.txt')).toBe('inside');
    await jail.writeFile('shortcut.txt', 'rewritten');
    expect(await readFile(join(root, 'data', 'real.txt'), 'utf8')).toBe('rewritten');
    expect(await jail.list()).toContainEqual({ name: 'shortcut.txt', type: 'symlink' });
  });

  it('works when its own folder is reached through a symlink', async () => {
    await symlink(root, join(base, 'jail-link'));
    const jail = createFileJail(join(base, 'jail-link'));
    await jail.writeFile('x.txt', 'via link');
    expect(await readFile(join(root, 'x.txt'), 'utf8')).toBe('via link');
  });

  it('enforces read, write, quota and listing caps instead of truncating', async () => {
    const jail = createFileJail(root, { maxReadBytes: 10, maxWriteBytes: 20, maxTotalWriteBytes: 30, bytesPerEntry: 1, maxListEntries: 1 });
    await writeFile(join(root, 'big.txt'), 'x'.repeat(11));

    expect((await refusal(jail.readFile('big.txt'))).reason).toBe('too-large');
    expect((await refusal(jail.writeFile('w.txt', 'y'.repeat(21)))).reason).toBe('too-large');
    await jail.writeFile('one.txt', 'z'.repeat(20));
    expect((await refusal(jail.writeFile('two.txt', 'z'.repeat(11)))).reason).toBe('quota-exceeded');
    expect((await refusal(jail.list())).reason).toBe('too-large');
  });

  it('counts every file and folder it creates against the write quota, so empty entries cannot flood the disk', async () => {
    const jail = createFileJail(root, { maxTotalWriteBytes: 350, bytesPerEntry: 100 });
    await jail.writeFile('a/b/c.txt', '');
    const refused = await refusal(jail.writeFile('a/d/e.txt', ''));
    expect(refused.reason).toBe('quota-exceeded');
    expect(refused.message).toContain('each new file or folder counts 100');
    // The folder that fit (d) was made; the file that did not was never created.
    await expect(stat(join(root, 'a', 'd', 'e.txt'))).rejects.toThrow(/ENOENT/);
    // Rewriting an existing file creates nothing, so only its text counts.
    await jail.writeFile('a/b/c.txt', 'x'.repeat(50));
    expect(await jail.readFile('a/b/c.txt')).toHaveLength(50);
  });

  it('refuses paths deeper than maxDepth before touching anything', async () => {
    const jail = createFileJail(root, { maxDepth: 4 });
    await jail.writeFile('a/b/c/d.txt', 'fits');
    const deep = `${'d/'.repeat(490)}f.txt`;
    expect(await refusal(jail.writeFile(deep, ''))).toMatchObject({ reason: 'too-deep', message: expect.stringContaining('491 segments deep; paths may have at most 4') });
    expect((await refusal(jail.readFile('a/b/c/d/e.txt'))).reason).toBe('too-deep');
    await expect(stat(join(root, 'd'))).rejects.toThrow(/ENOENT/);
  });

  it('stops, even in the middle of a write, once its signal is aborted', async () => {
    const controller = new AbortController();
    const jail = createFileJail(root, {}, { signal: controller.signal });
    const deepWrite = jail.writeFile(`${'d/'.repeat(30)}f.txt`, 'late');
    // Aborted while the write is on its way (its first await): it creates no folder after that.
    controller.abort();
    expect((await refusal(deepWrite)).reason).toBe('aborted');
    let depth = 0;
    for (let folder = join(root, 'd'); await stat(folder).then(() => true, () => false); folder = join(folder, 'd')) depth += 1;
    expect(depth).toBe(0);
    expect((await refusal(jail.writeFile('later.txt', 'x'))).reason).toBe('aborted');
    expect((await refusal(jail.readFile('later.txt'))).reason).toBe('aborted');
  });

  it('names missing paths, folders read as files and files listed as folders', async () => {
    const jail = createFileJail(root);
    await jail.writeFile('file.txt', 'text');
    expect((await refusal(jail.readFile('missing.txt'))).reason).toBe('not-found');
    expect((await refusal(jail.readFile('.'))).reason).toBe('not-a-file');
    expect((await refusal(jail.list('file.txt'))).reason).toBe('not-a-directory');
    expect((await refusal(jail.writeFile('file.txt/inner.txt', 'x'))).reason).toBe('not-a-directory');
  });

  it('streams a file larger than maxReadBytes in chunks, and closes it when the reader stops early', async () => {
    const jail = createFileJail(root, { maxReadBytes: 10 });
    const text = 'line\n'.repeat(40_000);
    await writeFile(join(root, 'big.txt'), text);
    const chunks: Uint8Array[] = [];
    for await (const chunk of jail.readChunks('big.txt')) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(text);

    const before = readdirSync('/proc/self/fd').length;
    for (let round = 0; round < 20; round++) {
      for await (const chunk of jail.readChunks('big.txt')) {
        expect(chunk.length).toBeGreaterThan(0);
        break;
      }
    }
    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('refuses to stream what it refuses to read, and stops streaming once aborted', async () => {
    const controller = new AbortController();
    const jail = createFileJail(root, {}, { signal: controller.signal });
    await writeFile(join(root, 'big.txt'), 'x'.repeat(300_000));
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const drain = async (path: string) => {
      for await (const chunk of jail.readChunks(path)) expect(chunk.length).toBeGreaterThan(0);
    };
    expect((await refusal(drain('link.txt'))).reason).toBe('outside-jail');
    expect((await refusal(drain('../outside/secret.txt'))).reason).toBe('parent-segment');
    expect((await refusal(drain('.'))).reason).toBe('not-a-file');
    expect((await refusal(drain('missing.txt'))).reason).toBe('not-found');
    let read = 0;
    const aborted = (async () => {
      for await (const chunk of jail.readChunks('big.txt')) {
        read += chunk.length;
        controller.abort();
      }
    })();
    expect((await refusal(aborted)).reason).toBe('aborted');
    expect(read).toBe(64 * 1024);
  });

  it.each(['.git/config', '.git/hooks/post-commit', '.git', 'sub/.git/config', '.GIT/config', '.git./config', '.g\u200cit/config'])(
    'refuses to write %j when .git is protected, creating nothing',
    async (path) => {
      const jail = createFileJail(root, {}, { protectedNames: ['.git'] });
      expect((await refusal(jail.writeFile(path, 'x'))).reason).toBe('protected-name');
      expect(readdirSync(root)).toEqual([]);
    },
  );

  it('refuses writes that reach a protected folder through a symlink, but still reads it', async () => {
    const jail = createFileJail(root, {}, { protectedNames: ['.git'] });
    await mkdir(join(root, '.git', 'hooks'), { recursive: true });
    await writeFile(join(root, '.git', 'config'), '[core]\n');
    await symlink('.git', join(root, 'innocent'));
    await symlink('.git/config', join(root, 'settings.txt'));

    expect((await refusal(jail.writeFile('innocent/config', 'x'))).reason).toBe('protected-name');
    expect((await refusal(jail.writeFile('innocent/hooks/pre-commit', 'x'))).reason).toBe('protected-name');
    expect((await refusal(jail.writeFile('innocent/new-folder/file', 'x'))).reason).toBe('protected-name');
    expect((await refusal(jail.writeFile('settings.txt', 'x'))).reason).toBe('protected-name');
    expect(readdirSync(join(root, '.git')).sort()).toEqual(['config', 'hooks']);
    expect(readdirSync(join(root, '.git', 'hooks'))).toEqual([]);
    expect(await jail.readFile('innocent/config')).toBe('[core]\n');
    await jail.writeFile('git-notes.txt', 'a neighbour of .git is fine');
    expect(await readFile(join(root, 'git-notes.txt'), 'utf8')).toBe('a neighbour of .git is fine');
  });

  it('gives the plain form of a path it accepts, and refuses the rest like every operation', () => {
    expect(plainRelativePath('./notes//today.txt')).toBe('notes/today.txt');
    expect(plainRelativePath('.')).toBe('.');
    expect(plainRelativePath('')).toBe('.');
    for (const path of ['../x', '/etc/passwd', 'a\\b', 'a\0b', 'a/../../b']) expect(() => plainRelativePath(path)).toThrow(FileJailError);
    expect(() => plainRelativePath('a/b/c', 2)).toThrow(/at most 2/);
  });

  it('never puts the absolute host location of the jail in its messages', async () => {
    await symlink(outside, join(root, 'door'));
    const jail = createFileJail(root);
    const messages = [
      (await refusal(jail.readFile('missing.txt'))).message,
      (await refusal(jail.readFile('door/secret.txt'))).message,
      (await refusal(jail.writeFile('door/x.txt', 'x'))).message,
    ];
    for (const message of messages) expect(message).not.toContain(base);
  });
});
