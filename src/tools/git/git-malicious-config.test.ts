import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../core/index.js';
import { createGitTools } from './index.js';

let base: string;
let workspace: string;
let canaries: string;

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

/**
 * git as a person would run it in that workspace: the control that shows the attacks are real.
 * `workTree` pins the work tree for the doors that need the workspace's own files (filters).
 */
function personGit(args: readonly string[], workTree?: string): string {
  return execFileSync('git', args, {
    cwd: workspace,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: base,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'P',
      GIT_AUTHOR_EMAIL: 'p@example.com',
      GIT_COMMITTER_NAME: 'P',
      GIT_COMMITTER_EMAIL: 'p@example.com',
      ...(workTree === undefined ? {} : { GIT_WORK_TREE: workTree }),
    },
  });
}

/** A script outside the workspace that leaves a canary file named after what ran it, and passes its input through. */
async function evilProgram(name: string): Promise<string> {
  const script = join(base, `evil-${name}.sh`);
  await writeFile(script, `#!/bin/sh\ntouch '${join(canaries, name)}'\ncat 2>/dev/null\nexit 0\n`);
  await chmod(script, 0o755);
  return script;
}

/**
 * A repository whose config and hooks would run a program through every door git has for it: a hook
 * of each kind (and a hooks path), fsmonitor, filter drivers (one long-running, one in an included
 * file, one whose name holds "="), diff drivers and an external diff, pagers, signing programs and
 * editors, plus a work tree moved outside.
 */
async function plantMaliciousRepository(): Promise<void> {
  personGit(['init', '--quiet', '--initial-branch=main']);
  await writeFile(join(workspace, 'tracked.txt'), 'tracked\n');
  personGit(['add', 'tracked.txt']);
  personGit(['-c', 'core.hooksPath=/dev/null', 'commit', '--quiet', '-m', 'base']);
  const hooks = join(workspace, '.git', 'hooks');
  for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-index-change', 'reference-transaction', 'pre-auto-gc']) {
    await writeFile(join(hooks, hook), `#!/bin/sh\ntouch '${join(canaries, `hook-${hook}`)}'\n`);
    await chmod(join(hooks, hook), 0o755);
  }
  await mkdir(join(base, 'evil-hooks'));
  for (const hook of ['pre-commit', 'post-commit']) {
    await writeFile(join(base, 'evil-hooks', hook), `#!/bin/sh\ntouch '${join(canaries, 'hooks-path')}'\n`);
    await chmod(join(base, 'evil-hooks', hook), 0o755);
  }
  await mkdir(join(base, 'moved-work-tree'));
  await writeFile(join(base, 'moved-work-tree', 'outside.txt'), 'outside the workspace\n');
  await writeFile(join(base, 'included.config'), `[filter "sneaky"]\n\tclean = ${await evilProgram('filter-included')}\n\tsmudge = ${await evilProgram('filter-included')}\n`);
  const config = `
[include]
\tpath = ${join(base, 'included.config')}
[core]
\tfsmonitor = ${await evilProgram('fsmonitor')}
\thooksPath = ${join(base, 'evil-hooks')}
\tpager = ${await evilProgram('core-pager')}
\teditor = ${await evilProgram('editor')}
\tworktree = ${join(base, 'moved-work-tree')}
\tsshCommand = ${await evilProgram('ssh')}
[pager]
\tstatus = ${await evilProgram('pager-status')}
\tdiff = ${await evilProgram('pager-diff')}
\tlog = ${await evilProgram('pager-log')}
[filter "evil"]
\tclean = ${await evilProgram('filter-clean')}
\tsmudge = ${await evilProgram('filter-smudge')}
\trequired = true
[filter "long"]
\tprocess = ${await evilProgram('filter-process')}
[filter "a=b"]
\tclean = ${await evilProgram('filter-equals')}
[diff]
\texternal = ${await evilProgram('diff-external')}
[diff "evil"]
\ttextconv = ${await evilProgram('diff-textconv')}
\tcommand = ${await evilProgram('diff-command')}
[log]
\tshowSignature = true
[commit]
\tgpgSign = true
[gpg]
\tprogram = ${await evilProgram('gpg')}
[sequence]
\teditor = ${await evilProgram('sequence-editor')}
[gc]
\tauto = 1
\tautoDetach = false
`;
  await writeFile(join(workspace, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`);
  await writeFile(join(workspace, '.gitattributes'), '*.txt filter=evil diff=evil\n*.long filter=long\n*.sneaky filter=sneaky\n*.eq filter=a=b\n');
  await writeFile(join(workspace, 'tracked.txt'), 'tracked and changed\n');
  for (const name of ['new.txt', 'new.long', 'new.sneaky', 'new.eq']) await writeFile(join(workspace, name), `content of ${name}\n`);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-git-malicious-')));
  workspace = join(base, 'workspace');
  canaries = join(base, 'canaries');
  await mkdir(workspace);
  await mkdir(canaries);
  await plantMaliciousRepository();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('a repository whose config would run programs', () => {
  it('does run them when a person uses git there (the control: the attacks are real)', async () => {
    expect(personGit(['status', '--short'])).toContain('outside.txt');
    const commands = [['status'], ['add', '.'], ['diff', 'HEAD'], ['diff', '--no-ext-diff', 'HEAD'], ['log', '-1'], ['commit', '-m', 'x']];
    for (const command of commands) {
      try {
        personGit(command, workspace);
      } catch {
        // Some evil programs make git fail (the signing one signs nothing); the canaries tell what ran.
      }
    }
    expect(await readdir(canaries)).toEqual(
      expect.arrayContaining(['fsmonitor', 'filter-clean', 'filter-smudge', 'filter-process', 'filter-included', 'filter-equals', 'diff-external', 'diff-command', 'diff-textconv', 'gpg', 'hooks-path']),
    );
  });

  it('runs none of them through the git tools, and keeps to the workspace as the work tree', async () => {
    const tools = createGitTools({ workspace, env: { PATH: process.env.PATH } });
    const call = (name: string, input: Record<string, unknown> = {}) => {
      const tool = tools.find((candidate) => candidate.name === name)!;
      return tool.execute(tool.inputSchema.parse(input), context) as Promise<string>;
    };
    const status = await call('git_status');
    expect(status).toContain(' M tracked.txt');
    expect(status).toContain('?? new.long');
    expect(status).not.toContain('outside.txt');
    expect(await call('git_diff')).toContain('+tracked and changed');
    expect(await call('git_log', { limit: 5 })).toMatch(/ P: base$/);
    const staged = await call('git_add', { paths: ['.'] });
    expect(staged).toContain('A  new.eq');
    expect(staged).not.toContain('outside.txt');
    const diff = await call('git_diff', { staged: true });
    // Filters blanked: what is staged is the files' own text, not a filter's output.
    expect(diff).toContain('+content of new.sneaky');
    expect(await call('git_commit', { message: 'through the tools' })).toMatch(/through the tools/);
    expect(await call('git_log', { limit: 1 })).toMatch(/Forge: through the tools$/);
    expect(await call('git_status')).toBe('## main');
    expect(await readdir(canaries)).toEqual([]);
  });
});
