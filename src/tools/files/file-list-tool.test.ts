import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { createFileTools, type FileListOutput } from './index.js';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-list-')));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function fileList(limits: { maxFolderEntries?: number } = {}) {
  const tool = createFileTools({ workspace, limits }).find((candidate) => candidate.name === 'file_list')!;
  return (input: Record<string, unknown>) => tool.execute(tool.inputSchema.parse(input), context) as Promise<FileListOutput>;
}

async function plantTree(): Promise<void> {
  await mkdir(join(workspace, 'src', 'deep'), { recursive: true });
  await mkdir(join(workspace, '.git', 'objects'), { recursive: true });
  await writeFile(join(workspace, 'README.md'), '# readme');
  await writeFile(join(workspace, 'src', 'index.ts'), 'export {};');
  await writeFile(join(workspace, 'src', 'deep', 'leaf.ts'), 'export {};');
  await writeFile(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main');
  await symlink('src', join(workspace, 'source-link'));
}

describe('file_list', () => {
  it('lists the workspace one level deep with workspace-relative paths and types', async () => {
    await plantTree();
    expect(await fileList()({})).toEqual({
      path: '.',
      truncated: false,
      entries: [
        { path: '.git', type: 'directory' },
        { path: 'README.md', type: 'file' },
        { path: 'source-link', type: 'symlink' },
        { path: 'src', type: 'directory' },
      ],
    });
    expect((await fileList()({ path: 'src/' })).entries).toEqual([
      { path: 'src/deep', type: 'directory' },
      { path: 'src/index.ts', type: 'file' },
    ]);
  });

  it('lists recursively, nearest first, without entering .git or following symlinks', async () => {
    await plantTree();
    expect((await fileList()({ recursive: true })).entries.map((entry) => entry.path)).toEqual(['.git', 'README.md', 'source-link', 'src', 'src/deep', 'src/index.ts', 'src/deep/leaf.ts']);
  });

  it('caps the entries with a visible marker', async () => {
    for (let index = 0; index < 30; index++) await writeFile(join(workspace, `file-${String(index).padStart(2, '0')}.txt`), '');
    const listed = await fileList()({ max_entries: 10 });
    expect(listed.entries).toHaveLength(10);
    expect(listed).toMatchObject({ truncated: true, truncation: expect.stringMatching(/more than 10 entries; showing the first 10/) });
    expect((await fileList()({ max_entries: 30 })).truncated).toBe(false);
  });

  it('notes folders it could not list and goes on', async () => {
    await mkdir(join(workspace, 'big'));
    for (let index = 0; index < 6; index++) await writeFile(join(workspace, 'big', `${index}.txt`), '');
    await writeFile(join(workspace, 'after.txt'), '');
    const listed = await fileList({ maxFolderEntries: 5 })({ recursive: true });
    expect(listed.entries.map((entry) => entry.path)).toEqual(['after.txt', 'big']);
    expect(listed.skipped).toEqual([expect.stringMatching(/"big": holds 6 entries/)]);
  });

  it('refuses to list a file, a missing folder, or the outside', async () => {
    await writeFile(join(workspace, 'file.txt'), '');
    await expect(fileList()({ path: 'file.txt' })).rejects.toThrow(/is not a folder/);
    await expect(fileList()({ path: 'missing' })).rejects.toThrow(/does not exist/);
    await expect(fileList()({ path: '..' })).rejects.toThrow(/".." segment/);
  });
});
