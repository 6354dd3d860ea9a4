import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { createFileTools, FileSearchPatternError, type FileSearchOutput, type FileToolLimits } from './index.js';

let base: string;
let workspace: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-search-')));
  workspace = join(base, 'workspace');
  await mkdir(join(workspace, 'src', 'nested'), { recursive: true });
  await writeFile(join(workspace, 'src', 'a.ts'), 'const answer = 42;\nexport function Hello() {}\n// TODO: tidy\n');
  await writeFile(join(workspace, 'src', 'nested', 'b.ts'), 'export const hello = "world";\r\n');
  await writeFile(join(workspace, 'notes.md'), 'hello notes\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function fileSearch(limits: Partial<FileToolLimits> = {}) {
  const tool = createFileTools({ workspace, limits }).find((candidate) => candidate.name === 'file_search')!;
  return (input: Record<string, unknown>) => tool.execute(tool.inputSchema.parse(input), context) as Promise<FileSearchOutput>;
}

describe('file_search', () => {
  it('finds a literal in every text file below a folder, as path:line: text', async () => {
    expect(await fileSearch()({ query: 'hello' })).toEqual({
      files_searched: 3,
      truncated: false,
      matches: ['notes.md:1: hello notes', 'src/nested/b.ts:1: export const hello = "world";'],
    });
    expect((await fileSearch()({ query: 'hello', ignore_case: true, path: 'src' })).matches).toEqual(['src/a.ts:2: export function Hello() {}', 'src/nested/b.ts:1: export const hello = "world";']);
  });

  it('searches one file when the path names a file', async () => {
    expect(await fileSearch()({ query: 'TODO', path: 'src/a.ts' })).toMatchObject({ files_searched: 1, matches: ['src/a.ts:3: // TODO: tidy'] });
  });

  it('matches regular expressions in linear time, anchored per line', async () => {
    expect((await fileSearch()({ query: '^export (function|const) [a-z]', regex: true })).matches).toEqual(['src/nested/b.ts:1: export const hello = "world";']);
    expect((await fileSearch()({ query: '^export (function|const) [a-z]', regex: true, ignore_case: true })).matches).toHaveLength(2);
    expect((await fileSearch()({ query: '";$', regex: true })).matches).toEqual(['src/nested/b.ts:1: export const hello = "world";']);
    // A pattern that backtracks exponentially in a backtracking engine: it must come back at once.
    await writeFile(join(workspace, 'evil.txt'), `${'a'.repeat(5000)}!\n`);
    expect((await fileSearch()({ query: '(a+)+$', regex: true, path: 'evil.txt' })).matches).toEqual([]);
  });

  it('refuses patterns that need backtracking, naming the fix', async () => {
    const error = await fileSearch()({ query: '(a)\\1', regex: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileSearchPatternError);
    expect((error as FileSearchPatternError).hint).toMatch(/regex: false/);
    await expect(fileSearch()({ query: 'x(?=y)', regex: true })).rejects.toBeInstanceOf(FileSearchPatternError);
  });

  it('caps matches with a visible marker', async () => {
    await writeFile(join(workspace, 'many.txt'), 'match\n'.repeat(40));
    const result = await fileSearch()({ query: 'match', max_matches: 5, path: 'many.txt' });
    expect(result.matches).toEqual(['many.txt:1: match', 'many.txt:2: match', 'many.txt:3: match', 'many.txt:4: match', 'many.txt:5: match']);
    expect(result).toMatchObject({ truncated: true, truncation: expect.stringMatching(/more than 5 matching lines/) });
  });

  it('caps the files searched and the bytes of each, saying what was left out', async () => {
    await writeFile(join(workspace, 'big.log'), `${'filler\n'.repeat(20_000)}needle at the end\n`);
    const capped = await fileSearch({ maxSearchFileBytes: 1024 })({ query: 'needle', path: 'big.log' });
    expect(capped).toMatchObject({ matches: [], skipped: ['"big.log": only its first 1024 bytes were searched.'] });
    expect((await fileSearch()({ query: 'needle', path: 'big.log' })).matches).toEqual(['big.log:20001: needle at the end']);
    const fewFiles = await fileSearch({ maxSearchFiles: 2 })({ query: 'hello' });
    expect(fewFiles).toMatchObject({ files_searched: 2, truncated: true, truncation: expect.stringMatching(/after searching 2 files/) });
  });

  it('skips binary files, .git and symlinks, and cuts long lines around the match', async () => {
    await writeFile(join(workspace, 'blob.bin'), Buffer.concat([Buffer.from('hello'), Buffer.from([0]), Buffer.from('hello')]));
    await mkdir(join(workspace, '.git'));
    await writeFile(join(workspace, '.git', 'config'), 'hello from git');
    await symlink(join(workspace, 'notes.md'), join(workspace, 'link.md'));
    await writeFile(join(workspace, 'min.js'), `${'x'.repeat(1000)}hello${'y'.repeat(1000)}\n`);
    const result = await fileSearch()({ query: 'hello' });
    expect(result.matches.map((match) => match.split(':')[0])).toEqual(['min.js', 'notes.md', 'src/nested/b.ts']);
    const long = result.matches[0]!;
    expect(long).toMatch(/^min\.js:1: …x{40}helloy+…$/);
    expect(long.length).toBeLessThan(230);
  });
});
