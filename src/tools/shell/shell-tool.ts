import { realpath } from 'node:fs/promises';
import { z } from 'zod';
import { RunCancelledError, defineTool, type AnyTool } from '../../core/index.js';
import { refuseBlockedCommand } from '../../security/blocked-commands.js';
import { detectIsolationBoundary, type IsolationDetector } from './isolation-boundary.js';
import { isolationFor, type ShellIsolationSetting } from './shell-isolation.js';
import { runCommand } from './run-command.js';
import { shellEnvironment } from './shell-environment.js';
import { workingFolder } from './working-folder.js';
import { ensureWorkspace, workspaceOf } from '../workspace-folder.js';

export const DEFAULT_TIMEOUT_SECONDS = 60;
export const MAX_TIMEOUT_SECONDS = 600;
/** The most bytes kept of stdout, and of stderr, per call. */
export const OUTPUT_LIMIT_BYTES = 64 * 1024;
// One argument to exec may hold at most 128 KiB (Linux's MAX_ARG_STRLEN), even at four bytes a character.
const maxCommandLength = 32 * 1024;

/**
 * What `shell` returns. A non-zero exit is an answer, not a failure. `exit_code` is null when a signal
 * ended the shell (`signal` names it; SIGKILL after a timeout, with `timed_out`).
 */
export interface ShellOutput {
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly timed_out: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether stdout or stderr was cut at the limit (the text then ends with a marker saying so). */
  readonly truncated: boolean;
  readonly duration_ms: number;
}

/** How the shell tool isolates its commands (see `ShellIsolationSetting`). */
export interface ShellToolOptions {
  /** The installation's workspace; a run's own overrides it. */
  readonly workspace: string;
  /**
   * FORGE_HOME (the database, the keys): hidden from every isolated command, like the installation's
   * workspace whenever a run works in a folder of its own inside it (the other accounts' folders).
   */
  readonly home?: string;
  /** Default `auto`. */
  readonly isolation?: ShellIsolationSetting;
  /** This process serves other people (`forge serve`, `forge worker`): under `auto`, no boundary means no shell. */
  readonly server?: boolean;
  /** Finds the host's boundary; default bwrap, else unshare, probed once. */
  readonly detect?: IsolationDetector;
}

/**
 * `shell({command, timeout_seconds?, cwd?})`: one `/bin/sh -c` command in the workspace, inside an
 * isolation boundary when the host offers one (no network, the file system read-only but for the
 * workspace and a private /tmp); see `ShellToolOptions`.
 */
export function createShellTool(options: ShellToolOptions): AnyTool {
  const installationWorkspace = options.workspace;
  const detect = options.detect ?? detectIsolationBoundary;
  return defineTool({
    name: 'shell',
    description:
      `Run a command with /bin/sh -c in the workspace folder and get its exit code, stdout and stderr. ` +
      `No stdin; environment: PATH, HOME (the workspace), LANG, TERM only. The command and everything it started ` +
      `are killed after timeout_seconds (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}) and when it ends; ` +
      `nothing keeps running in the background. Output past ${OUTPUT_LIMIT_BYTES / 1024} KB per stream is cut.`,
    inputSchema: z.object({
      command: z
        .string()
        .min(1)
        .max(maxCommandLength)
        .refine((command) => !command.includes('\0'), 'must not contain a NUL byte')
        .describe('The shell command, e.g. "ls -la" or "npm test 2>&1 | tail -n 50".'),
      timeout_seconds: z
        .number()
        .int()
        .min(1)
        .max(MAX_TIMEOUT_SECONDS)
        .optional()
        .describe(`Seconds before the command is killed; default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}.`),
      cwd: z.string().optional().describe('A folder inside the workspace, relative to it, to run in (default: the workspace itself).'),
    }),
    risk: 'high',
    sideEffect: 'write',
    external: true,
    async execute(input, context): Promise<ShellOutput> {
      refuseBlockedCommand(input.command);
      if (context.signal.aborted) throw new RunCancelledError('the run was cancelled before the shell command started');
      const boundary = await isolationFor(options.isolation ?? 'auto', options.server === true, detect);
      const workspace = await ensureWorkspace(workspaceOf(context, installationWorkspace));
      const cwd = await workingFolder(workspace, input.cwd);
      const hidden = await hiddenFolders([options.home, installationWorkspace], workspace);
      const outcome = await runCommand({
        argv: boundary === undefined ? ['/bin/sh', '-c', input.command] : await boundary.argv({ command: input.command, workspace, cwd, hidden }),
        cwd,
        env: shellEnvironment(workspace),
        timeoutMs: (input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
        outputLimitBytes: OUTPUT_LIMIT_BYTES,
        signal: context.signal,
      });
      if (outcome.pipesHeldOpen) {
        context.log?.(['A process this shell command started is still running: it left the command\'s session and closed the descriptor Forge tracks it by, so it could not be killed.']);
      }
      if (outcome.ending === 'cancelled') throw new RunCancelledError('the shell command was stopped and all its processes killed');
      return {
        exit_code: outcome.exitCode,
        signal: outcome.exitSignal,
        timed_out: outcome.ending === 'timed-out',
        stdout: outcome.stdout.text(),
        stderr: outcome.stderr.text(),
        truncated: outcome.stdout.truncated || outcome.stderr.truncated,
        duration_ms: Math.round(outcome.durationMs),
      };
    },
  });
}

/** The real paths of `folders` that exist and are not the workspace itself: what an isolated command must not see. */
async function hiddenFolders(folders: readonly (string | undefined)[], workspace: string): Promise<string[]> {
  const real = await Promise.all(folders.map((folder) => (folder === undefined ? undefined : realpath(folder).catch(() => undefined))));
  return [...new Set(real.filter((folder): folder is string => folder !== undefined && folder !== workspace))];
}
