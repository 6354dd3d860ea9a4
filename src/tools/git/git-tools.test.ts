import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyTool, ToolContext } from '../../core/index.js';
import { FileJailError } from '../../security/index.js';
import { plantEscapes, snapshotTree, traversalPaths } from '../../security/traversal-contract.js';
import { createGitTools, GitCommandError, NotAGitRepositoryError, UnsafeGitRepositoryError } from './index.js';

let base: string;
let workspace: string;
let outside: string;

/** git as a person would run it, for setting repositories up and looking at them from outside the tools. */
function systemGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Person', GIT_AUTHOR_EMAIL: 'person@example.com', GIT_COMMITTER_NAME: 'Person', GIT_COMMITTER_EMAIL: 'person@example.com' },
  });
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-git-tools-')));
  workspace = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  systemGit(workspace, 'init', '--quiet', '--initial-branch=main');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

function gitTools(env: Record<string, string | undefined> = { PATH: process.env.PATH }, folder = workspace) {
  const tools = createGitTools({ workspace: folder, env });
  return (name: string, input: Record<string, unknown> = {}, callContext: ToolContext = context) => {
    const tool: AnyTool = tools.find((candidate) => candidate.name === name)!;
    return tool.execute(tool.inputSchema.parse(input), callContext) as Promise<string>;
  };
}

describe('the git tools in a real repository', () => {
  it('declare their risks: status, diff and log read; add and commit write; all output is external', () => {
    const declared = createGitTools({ workspace, env: {} }).map((tool) => [tool.name, tool.risk, tool.sideEffect, tool.external]);
    expect(declared).toEqual([
      ['git_status', 'low', 'read', true],
      ['git_diff', 'low', 'read', true],
      ['git_log', 'low', 'read', true],
      ['git_add', 'medium', 'write', true],
      ['git_commit', 'medium', 'write', true],
    ]);
  });

  it('goes from a new file to a commit: status, add, staged diff, commit, log', async () => {
    const git = gitTools();
    expect(await git('git_log')).toBe('No commits yet.');
    await writeFile(join(workspace, 'notes.txt'), 'first line\n');
    expect(await git('git_status')).toBe('## No commits yet on main\n?? notes.txt');
    expect(await git('git_add', { paths: ['notes.txt'] })).toBe('## No commits yet on main\nA  notes.txt');
    expect(await git('git_diff')).toBe('No unstaged changes.');
    expect(await git('git_diff', { staged: true })).toContain('+++ b/notes.txt\n@@ -0,0 +1 @@\n+first line');
    const committed = await git('git_commit', { message: 'Add notes' });
    expect(committed).toMatch(/^\[main \(root-commit\) [0-9a-f]{7,}\] Add notes\n 1 file changed, 1 insertion\(\+\)/);
    expect(systemGit(workspace, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s').trim()).toBe('Forge <forge@localhost>|Forge <forge@localhost>|Add notes');
    expect(await git('git_log')).toMatch(/^[0-9a-f]{7,} \d{4}-\d{2}-\d{2} Forge: Add notes$/);
    expect(await git('git_status')).toBe('## main');
  });

  it('shows unstaged changes, for one path when asked, and limits the log', async () => {
    const git = gitTools();
    await writeFile(join(workspace, 'a.txt'), 'a\n');
    await writeFile(join(workspace, 'b.txt'), 'b\n');
    systemGit(workspace, 'add', '.');
    systemGit(workspace, 'commit', '--quiet', '-m', 'one');
    systemGit(workspace, 'commit', '--quiet', '--allow-empty', '-m', 'two');
    await writeFile(join(workspace, 'a.txt'), 'a changed\n');
    await writeFile(join(workspace, 'b.txt'), 'b changed\n');
    const both = await git('git_diff');
    expect(both).toContain('+a changed');
    expect(both).toContain('+b changed');
    const onlyB = await git('git_diff', { path: './b.txt' });
    expect(onlyB).toContain('+b changed');
    expect(onlyB).not.toContain('a changed');
    expect((await git('git_log', { limit: 1 })).split('\n')).toEqual([expect.stringMatching(/ Person: two$/)]);
    expect((await git('git_log')).split('\n')).toHaveLength(2);
  });

  it('commits as the author Forge is configured with', async () => {
    await writeFile(join(workspace, 'x.txt'), 'x');
    const git = gitTools({ PATH: process.env.PATH, FORGE_GIT_AUTHOR_NAME: 'Build Bot', FORGE_GIT_AUTHOR_EMAIL: 'bot@example.org' });
    await git('git_add', { paths: ['.'] });
    await git('git_commit', { message: 'By the bot' });
    expect(systemGit(workspace, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Build Bot <bot@example.org>');
  });

  it('fails clearly when nothing is staged, with git\'s own reason', async () => {
    const error = await gitTools()('git_commit', { message: 'empty' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).message).toMatch(/^git commit failed \(exit code 1\): .*nothing to commit/s);
  });

  it('says so when git is not installed', async () => {
    const error = await gitTools({ PATH: join(base, 'no-programs-here') })('git_status').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error).toMatchObject({ message: expect.stringMatching(/git is not installed/), hint: expect.stringMatching(/Install git/) });
  });

  it('kills git at the time limit (a config that includes a FIFO would block it forever)', async () => {
    execFileSync('mkfifo', [join(base, 'blocking-include')]);
    await writeFile(join(workspace, '.git', 'config'), `[include]\n\tpath = ${join(base, 'blocking-include')}\n`, { flag: 'a' });
    const tools = createGitTools({ workspace, env: { PATH: process.env.PATH }, timeoutMs: 300 });
    const error = await tools[0]!.execute({}, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).message).toMatch(/git config did not finish: it was stopped after 300 ms/);
  });

  it('stops git when the run is cancelled', async () => {
    execFileSync('mkfifo', [join(base, 'blocking-include')]);
    await writeFile(join(workspace, '.git', 'config'), `[include]\n\tpath = ${join(base, 'blocking-include')}\n`, { flag: 'a' });
    const controller = new AbortController();
    const pending = gitTools()('git_status', {}, { ...context, signal: controller.signal }).catch((caught: unknown) => caught);
    // Opening the FIFO's other end completes once git has opened it: git is running, blocked on it.
    const writer = await open(join(base, 'blocking-include'), 'w');
    try {
      controller.abort();
      expect(await pending).toMatchObject({ name: 'RunCancelledError', message: expect.stringMatching(/while git config ran/) });
    } finally {
      await writer.close();
    }
  });

  it('cuts output at the cap with a visible marker', async () => {
    await writeFile(join(workspace, 'big.txt'), `${'line\n'.repeat(10_000)}`);
    const tools = createGitTools({ workspace, env: { PATH: process.env.PATH }, maxOutputBytes: 1000 });
    const add = tools.find((tool) => tool.name === 'git_add')!;
    const diff = tools.find((tool) => tool.name === 'git_diff')!;
    await add.execute({ paths: ['big.txt'] }, context);
    const shown = (await diff.execute({ staged: true }, context)) as string;
    expect(shown).toMatch(/\n\[truncated by Forge: git printed more than 1000 bytes; only the first ones are shown\]$/);
    expect(shown.length).toBeLessThan(1200);
  });
});

describe('the git tools refuse what is not a repository of the workspace', () => {
  it('refuses a workspace without .git, hinting to git init it', async () => {
    const plain = join(base, 'plain');
    const error = await gitTools({ PATH: process.env.PATH }, plain)('git_status').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotAGitRepositoryError);
    expect((error as NotAGitRepositoryError).hint).toMatch(/git init/);
  });

  it('never uses a repository above the workspace (git would otherwise find it by walking up)', async () => {
    const inner = join(workspace, 'inner');
    await mkdir(inner);
    await writeFile(join(inner, 'file.txt'), 'x');
    const git = gitTools({ PATH: process.env.PATH }, inner);
    await expect(git('git_status')).rejects.toBeInstanceOf(NotAGitRepositoryError);
    await expect(git('git_add', { paths: ['.'] })).rejects.toBeInstanceOf(NotAGitRepositoryError);
    expect(systemGit(workspace, 'status', '--short')).toBe('?? inner/\n');
  });

  it('refuses a .git file (linked worktree), a symlinked .git, shared objects and alternates', async () => {
    const linked = join(base, 'linked');
    await writeFile(join(workspace, 'f.txt'), 'f');
    systemGit(workspace, 'add', '.');
    systemGit(workspace, 'commit', '--quiet', '-m', 'base');
    systemGit(workspace, 'worktree', 'add', '--quiet', linked);
    await expect(gitTools({ PATH: process.env.PATH }, linked)('git_status')).rejects.toThrow(/\.git is a file or symlink/);

    const symlinked = join(base, 'symlinked');
    await mkdir(symlinked);
    await symlink(join(workspace, '.git'), join(symlinked, '.git'));
    await expect(gitTools({ PATH: process.env.PATH }, symlinked)('git_log')).rejects.toBeInstanceOf(UnsafeGitRepositoryError);

    await writeFile(join(workspace, '.git', 'objects', 'info', 'alternates'), `${join(outside, 'objects')}\n`);
    await expect(gitTools()('git_log')).rejects.toThrow(/borrows objects/);
  });

  it('ignores GIT_* variables and config parameters in Forge\'s environment', async () => {
    const elsewhere = join(base, 'elsewhere');
    await mkdir(elsewhere);
    systemGit(elsewhere, 'init', '--quiet');
    await writeFile(join(workspace, 'mine.txt'), 'x');
    const canary = join(base, 'canary-environment');
    const git = gitTools({
      PATH: process.env.PATH,
      GIT_DIR: join(elsewhere, '.git'),
      GIT_WORK_TREE: elsewhere,
      GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='touch ${canary}'`,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: `touch ${canary}`,
      GIT_EXTERNAL_DIFF: `touch ${canary}`,
    });
    expect(await git('git_status')).toBe('## No commits yet on main\n?? mine.txt');
    await writeFile(join(workspace, 'mine.txt'), 'y');
    await git('git_add', { paths: ['mine.txt'] });
    expect(await git('git_diff', { staged: true })).toContain('+y');
    await expect(readFile(canary)).rejects.toThrow(/ENOENT/);
  });
});

describe('git_add and git_diff against the traversal list', () => {
  const secretBlob = () => execFileSync('git', ['hash-object', join(outside, 'secret.txt')], { encoding: 'utf8' }).trim();

  it('refuses every path outside the workspace before git runs, and stages nothing from outside', async () => {
    const planted = await plantEscapes(workspace, outside);
    const git = gitTools();
    const before = await snapshotTree(outside);
    for (const path of traversalPaths) {
      for (const call of [git('git_add', { paths: [path] }), git('git_diff', { path })]) {
        const seen = await call.then(
          (value) => `value:${value}`,
          (error: unknown) => `error:${error instanceof FileJailError ? error.reason : String(error)}`,
        );
        expect(seen, path).not.toContain('top secret');
        if (path.startsWith('/') || path.split('/').includes('..')) expect(seen, path).toMatch(/^error:(absolute-path|parent-segment)$/);
      }
    }
    for (const path of [...planted.symlinkChain, ...planted.linkedPaths, ...planted.specialFiles]) {
      const seen = await git('git_add', { paths: [path] }).then(
        (value) => `value:${value}`,
        (error: unknown) => `error:${String(error)}`,
      );
      expect(seen, path).not.toContain('top secret');
    }
    await expect(git('git_add', { paths: ['out-dir/secret.txt'] })).rejects.toThrow(/beyond a symbolic link/);
    // Links themselves may be staged (as links): what git stores is where they point, never what they point at.
    expect(() => systemGit(workspace, 'cat-file', '-e', secretBlob())).toThrow();
    expect(systemGit(workspace, 'ls-files')).not.toMatch(/secret/);
    expect(await snapshotTree(outside)).toEqual(before);
  });
});
