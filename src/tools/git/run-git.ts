import { spawn } from 'node:child_process';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { RunCancelledError } from '../../core/index.js';
import { GitCommandError } from './git-errors.js';
import type { GitToolSettings } from './git-tool-settings.js';

/** What one git command printed on its standard output, at most `maxOutputBytes` of it. */
export interface GitOutput {
  readonly text: string;
  /** git printed more than `maxOutputBytes`; the rest was dropped. */
  readonly truncated: boolean;
}

/** Runs git commands in one repository, every one under the same safety settings. */
export interface GitRunner {
  /** Runs `git <args>`; a non-zero exit is a `GitCommandError` carrying git's own message. */
  run(args: readonly string[], environment?: Readonly<Record<string, string>>): Promise<GitOutput>;
}

/**
 * Settings given to every command at the highest precedence (as `-c` would), so that the repository's
 * own config, which anyone who could write a file there may have written, cannot make git run a
 * program: no hooks, no fsmonitor, no pager or editor, no external diff, no signing (gpg.program), no
 * automatic gc or maintenance, no submodule recursion (a submodule's own config is not neutralized), and
 * no transport at all (protocol.allow=never), so core.sshCommand, core.gitProxy, credential helpers and a
 * partial clone's lazy fetch can never start. The attribute and ignore files outside the repository are
 * ignored; paths are always quoted, output never coloured.
 */
const safetySettings: ReadonlyArray<readonly [string, string]> = [
  ['core.hooksPath', devNull],
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['diff.external', ''],
  ['core.attributesFile', devNull],
  ['core.excludesFile', devNull],
  ['core.quotePath', 'true'],
  ['color.ui', 'false'],
  ['log.showSignature', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['protocol.allow', 'never'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
];

const maxErrorBytes = 16 * 1024;

/**
 * A runner for the repository at `folder` (checked by `repositoryOf`). git runs as a program (never a
 * shell), in `folder`, with a minimal environment built here (nothing of Forge's, no vendor keys, no
 * GIT_* variable of the process) that names the repository and its work tree outright, so no config
 * can move either; stdin is closed; each command is killed at the time limit or when the run is
 * cancelled. Before the first command the repository's config is read once for the filter and diff
 * drivers it defines (their names are arbitrary), and every one is blanked like the settings above.
 */
export async function openGitRunner(folder: string, settings: Pick<GitToolSettings, 'path' | 'timeoutMs' | 'maxOutputBytes'>, signal: AbortSignal): Promise<GitRunner> {
  const execute = (args: readonly string[], overrides: ReadonlyArray<readonly [string, string]>, extra: Readonly<Record<string, string>>) =>
    runGitProcess(args, { folder, environment: { ...gitEnvironment(folder, settings.path, overrides), ...extra }, settings, signal });
  const names = await execute(['config', '--list', '--name-only', '-z'], safetySettings, {});
  if (names.truncated) throw new GitCommandError('config', null, 'the repository config is too large to check.', 'Shrink .git/config (and the files it includes).');
  const overrides = [...safetySettings, ...driverOverrides(names.text.split('\0'))];
  return { run: (args, extra = {}) => execute(args, overrides, extra) };
}

/** The whole environment git runs with; `overrides` travel as GIT_CONFIG_KEY_n/VALUE_n, which take any key. */
function gitEnvironment(folder: string, path: string, overrides: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: path,
    // Nothing can exist under /dev/null, so no configuration, credentials or ssh keys are found through HOME.
    HOME: devNull,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_DIR: join(folder, '.git'),
    GIT_WORK_TREE: folder,
    GIT_TERMINAL_PROMPT: '0',
    // Reading commands (status, diff) do not rewrite the index on the side.
    GIT_OPTIONAL_LOCKS: '0',
    // A checked path means itself, never a glob or a ":(top)" magic pathspec.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_CONFIG_COUNT: String(overrides.length),
  };
  overrides.forEach(([key, value], index) => {
    environment[`GIT_CONFIG_KEY_${index}`] = key;
    environment[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return environment;
}

/**
 * Blanks every filter driver (clean, smudge, long-running process; not required, so a blanked filter
 * passes content through) and every diff driver (command, textconv) that the config names. An empty
 * command is never started; at worst git reports it cannot run it.
 */
function driverOverrides(configNames: readonly string[]): Array<readonly [string, string]> {
  const overrides: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  for (const name of configNames) {
    const firstDot = name.indexOf('.');
    const lastDot = name.lastIndexOf('.');
    if (firstDot === lastDot) continue;
    const section = name.slice(0, firstDot).toLowerCase();
    const driver = name.slice(firstDot + 1, lastDot);
    if ((section !== 'filter' && section !== 'diff') || seen.has(`${section}.${driver}`)) continue;
    seen.add(`${section}.${driver}`);
    const keys = section === 'filter' ? ['clean', 'smudge', 'process'] : ['command', 'textconv'];
    for (const key of keys) overrides.push([`${section}.${driver}.${key}`, '']);
    if (section === 'filter') overrides.push([`filter.${driver}.required`, 'false']);
  }
  return overrides;
}

interface GitProcessOptions {
  readonly folder: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly settings: Pick<GitToolSettings, 'timeoutMs' | 'maxOutputBytes'>;
  readonly signal: AbortSignal;
}

/**
 * One git process. spawn without a shell, as execFile would, but reading the output itself: execFile
 * kills the process when its output passes the cap, and a `git add` killed halfway leaves a lock
 * behind; here output past the cap is read and dropped while git finishes.
 */
function runGitProcess(args: readonly string[], options: GitProcessOptions): Promise<GitOutput> {
  const command = args[0] ?? 'git';
  if (options.signal.aborted) return Promise.reject(new RunCancelledError('the run was cancelled before git ran'));
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-pager', ...args], {
      cwd: options.folder,
      env: options.environment,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      timeout: options.settings.timeoutMs,
      killSignal: 'SIGKILL',
      signal: options.signal,
    });
    const output = cappedCollector(options.settings.maxOutputBytes);
    const errors = cappedCollector(maxErrorBytes);
    child.stdout.on('data', output.add);
    child.stderr.on('data', errors.add);
    let failure: Error | undefined;
    child.on('error', (error) => {
      failure = error;
    });
    child.on('close', (exitCode, killedBy) => {
      if (failure?.name === 'AbortError' || options.signal.aborted) return reject(new RunCancelledError(`the run was cancelled while git ${command} ran`));
      if ((failure as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
        return reject(new GitCommandError(command, null, 'git is not installed (no git program on the PATH).', 'Install git, or put its folder on the PATH Forge runs with.'));
      }
      if (failure !== undefined) return reject(new GitCommandError(command, null, failure.message));
      if (killedBy !== null) {
        return reject(new GitCommandError(command, null, `it was stopped after ${options.settings.timeoutMs} ms (${killedBy}).`, 'Ask for less (a path, a smaller limit), or make the repository smaller.'));
      }
      // Some failures are told on standard output only ("nothing to commit").
      if (exitCode !== 0) return reject(new GitCommandError(command, exitCode, errors.text().trim() || output.text().trim() || '(git printed no message)'));
      resolve({ text: output.text(), truncated: output.truncated() });
    });
  });
}

/** Keeps the first `limit` bytes of a stream and counts whether more came. */
function cappedCollector(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = false;
  return {
    add: (chunk: Buffer) => {
      if (kept >= limit) {
        dropped = true;
        return;
      }
      const part = chunk.length > limit - kept ? chunk.subarray(0, limit - kept) : chunk;
      if (part.length < chunk.length) dropped = true;
      chunks.push(part);
      kept += part.length;
    },
    text: () => Buffer.concat(chunks, kept).toString('utf8'),
    truncated: () => dropped,
  };
}
