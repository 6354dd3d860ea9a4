import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { createFileTools, type FileWriteOutput } from './index.js';

let base: string;
let workspace: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-write-')));
  workspace = join(base, 'not-yet-there');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function fileWrite() {
  const tool = createFileTools({ workspace }).find((candidate) => candidate.name === 'file_write')!;
  return (input: Record<string, unknown>) => tool.execute(tool.inputSchema.parse(input), context) as Promise<FileWriteOutput>;
}

describe('file_write', () => {
  it('creates the workspace, missing folders and the file, then replaces it', async () => {
    expect(await fileWrite()({ path: 'src/deep/new.ts', content: 'export const café = 1;\n' })).toEqual({ path: 'src/deep/new.ts', bytes: 24 });
    expect(await readFile(join(workspace, 'src', 'deep', 'new.ts'), 'utf8')).toBe('export const café = 1;\n');
    await fileWrite()({ path: 'src/deep/new.ts', content: 'replaced' });
    expect(await readFile(join(workspace, 'src', 'deep', 'new.ts'), 'utf8')).toBe('replaced');
  });

  it('never writes into .git, whose config and hooks git would run', async () => {
    await mkdir(join(workspace, '.git', 'hooks'), { recursive: true });
    for (const path of ['.git/config', '.git/hooks/post-commit', '.git', 'vendor/.git/config', '.GIT/config']) {
      await expect(fileWrite()({ path, content: '[core]\n\tfsmonitor = touch /tmp/pwned' })).rejects.toThrow(/protected entry/);
    }
    expect(await readdir(join(workspace, '.git'))).toEqual(['hooks']);
    expect(await readdir(join(workspace, '.git', 'hooks'))).toEqual([]);
    expect(await readdir(workspace)).toEqual(['.git']);
  });

  it('refuses one write larger than the jail allows', async () => {
    await expect(fileWrite()({ path: 'big.txt', content: 'x'.repeat(1024 * 1024 + 1) })).rejects.toThrow(/one write may hold at most 1048576 bytes/);
  });
});
