import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { BinaryFileError, createFileTools, FilePatchError, type FilePatchOutput } from './index.js';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-patch-')));
  await writeFile(join(workspace, 'code.ts'), 'let a = 1;\nlet b = 1;\nconsole.log(a + b);\n');
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function filePatch() {
  const tool = createFileTools({ workspace }).find((candidate) => candidate.name === 'file_patch')!;
  return (input: Record<string, unknown>) => tool.execute(tool.inputSchema.parse(input), context) as Promise<FilePatchOutput>;
}

const fileText = () => readFile(join(workspace, 'code.ts'), 'utf8');

describe('file_patch', () => {
  it('replaces text that occurs exactly once', async () => {
    expect(await filePatch()({ path: 'code.ts', old: 'let b = 1;', new: 'let b = 2;' })).toEqual({ path: 'code.ts', replacements: 1 });
    expect(await fileText()).toBe('let a = 1;\nlet b = 2;\nconsole.log(a + b);\n');
  });

  it('refuses an ambiguous match, saying how many times it occurs, and changes nothing', async () => {
    const before = await stat(join(workspace, 'code.ts'));
    const error = await filePatch()({ path: 'code.ts', old: ' = 1;', new: ' = 3;' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FilePatchError);
    expect(error).toMatchObject({ occurrences: 2, message: expect.stringMatching(/occurs 2 times/), hint: expect.stringMatching(/all: true/) });
    expect(await fileText()).toBe('let a = 1;\nlet b = 1;\nconsole.log(a + b);\n');
    expect((await stat(join(workspace, 'code.ts'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('replaces every occurrence with all: true', async () => {
    expect(await filePatch()({ path: 'code.ts', old: ' = 1;', new: ' = 3;', all: true })).toEqual({ path: 'code.ts', replacements: 2 });
    expect(await fileText()).toBe('let a = 3;\nlet b = 3;\nconsole.log(a + b);\n');
  });

  it('refuses text that does not occur, hinting to read the file again', async () => {
    await expect(filePatch()({ path: 'code.ts', old: 'let c', new: 'x' })).rejects.toMatchObject({ occurrences: 0, hint: expect.stringMatching(/file_read/) });
  });

  it('puts the new text in literally, "$&" and all, and may delete', async () => {
    await filePatch()({ path: 'code.ts', old: 'console.log(a + b);', new: "log('$&$1$$');" });
    expect(await fileText()).toBe("let a = 1;\nlet b = 1;\nlog('$&$1$$');\n");
    await filePatch()({ path: 'code.ts', old: 'let a = 1;\n', new: '' });
    expect(await fileText()).toBe("let b = 1;\nlog('$&$1$$');\n");
  });

  it('refuses binary files and files in .git', async () => {
    await writeFile(join(workspace, 'blob.bin'), Buffer.from([0x61, 0, 0x62]));
    await expect(filePatch()({ path: 'blob.bin', old: 'a', new: 'c' })).rejects.toBeInstanceOf(BinaryFileError);
    expect(await readFile(join(workspace, 'blob.bin'))).toEqual(Buffer.from([0x61, 0, 0x62]));
    await mkdir(join(workspace, '.git'));
    await writeFile(join(workspace, '.git', 'config'), '[core]\n\tbare = false\n');
    await expect(filePatch()({ path: '.git/config', old: 'bare = false', new: 'fsmonitor = touch /tmp/pwned' })).rejects.toThrow(/protected entry/);
    expect(await readFile(join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
  });
});
