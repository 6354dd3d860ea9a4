import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { BinaryFileError, createFileTools, FileLineRangeError, type FileReadOutput } from './index.js';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-read-')));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function fileRead(limits: { maxReadCharacters?: number; maxReadScanBytes?: number } = {}) {
  const tool = createFileTools({ workspace, limits }).find((candidate) => candidate.name === 'file_read')!;
  return (input: Record<string, unknown>) => tool.execute(tool.inputSchema.parse(input), context) as Promise<FileReadOutput>;
}

describe('file_read', () => {
  it('reads a whole file with its line count, line breaks as in the file', async () => {
    await writeFile(join(workspace, 'notes.txt'), 'one\r\ntwo\nthree');
    expect(await fileRead()({ path: './notes.txt' })).toEqual({ path: 'notes.txt', start_line: 1, end_line: 3, total_lines: 3, truncated: false, content: 'one\r\ntwo\nthree' });
  });

  it('reads a line range', async () => {
    await writeFile(join(workspace, 'lines.txt'), Array.from({ length: 100 }, (_, index) => `line ${index + 1}\n`).join(''));
    expect(await fileRead()({ path: 'lines.txt', start_line: 10, end_line: 12 })).toEqual({
      path: 'lines.txt',
      start_line: 10,
      end_line: 12,
      truncated: false,
      content: 'line 10\nline 11\nline 12\n',
    });
    expect(await fileRead()({ path: 'lines.txt', start_line: 99, end_line: 500 })).toMatchObject({ end_line: 100, total_lines: 100, content: 'line 99\nline 100\n' });
  });

  it('stops at the character cap with a visible marker before the content and where to read on', async () => {
    await writeFile(join(workspace, 'long.txt'), Array.from({ length: 50 }, (_, index) => `${String(index + 1).padStart(9, '0')}\n`).join(''));
    const read = fileRead({ maxReadCharacters: 35 });
    const first = await read({ path: 'long.txt' });
    expect(first).toMatchObject({ start_line: 1, end_line: 3, truncated: true, next_start_line: 4, content: '000000001\n000000002\n000000003\n' });
    expect(Object.keys(first).indexOf('truncation')).toBeLessThan(Object.keys(first).indexOf('content'));
    expect((first as { truncation: string }).truncation).toMatch(/35-character cap; read on from line 4/);
    expect(await read({ path: 'long.txt', start_line: 4 })).toMatchObject({ end_line: 6, next_start_line: 7, content: '000000004\n000000005\n000000006\n' });
  });

  it('shows the beginning of a line longer than the cap and goes on after it', async () => {
    await writeFile(join(workspace, 'minified.js'), `${'x'.repeat(100)}\nnext\n`);
    expect(await fileRead({ maxReadCharacters: 30 })({ path: 'minified.js' })).toMatchObject({
      end_line: 1,
      truncated: true,
      truncation: expect.stringMatching(/line 1 is longer than 30 characters/),
      next_start_line: 2,
      content: 'x'.repeat(30),
    });
  });

  it('reads only as far as the scan cap into a huge file, and says so', async () => {
    await writeFile(join(workspace, 'huge.log'), 'entry\n'.repeat(200_000));
    const result = await fileRead({ maxReadScanBytes: 64 * 1024 })({ path: 'huge.log', start_line: 150_000 });
    expect(result).toMatchObject({ truncated: true, content: '', truncation: expect.stringMatching(/only the first 65536 bytes/) });
  });

  it('refuses a binary file and lines past the end, with errors that say what to do', async () => {
    await writeFile(join(workspace, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await writeFile(join(workspace, 'short.txt'), 'a\nb\n');
    await expect(fileRead()({ path: 'image.png' })).rejects.toBeInstanceOf(BinaryFileError);
    const error = await fileRead()({ path: 'short.txt', start_line: 5 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileLineRangeError);
    expect((error as FileLineRangeError).message).toMatch(/has 2 lines; reading from line 5/);
    expect(await fileRead()({ path: 'short.txt', start_line: 2 })).toMatchObject({ content: 'b\n', total_lines: 2 });
  });

  it("reads in the run's own workspace when the context names one", async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-read-run-')));
    try {
      await writeFile(join(other, 'mine.txt'), 'the run workspace');
      const tool = createFileTools({ workspace }).find((candidate) => candidate.name === 'file_read')!;
      expect(await tool.execute({ path: 'mine.txt' }, { ...context, workspace: other })).toMatchObject({ content: 'the run workspace' });
      await expect(tool.execute({ path: 'mine.txt' }, context)).rejects.toThrow(/does not exist/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
