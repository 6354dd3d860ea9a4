import { z } from 'zod';
import { RunCancelledError, defineTool, type AnyTool } from '../../core/index.js';
import { refuseBlockedCommand } from '../../security/blocked-commands.js';
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

/** `shell({command, timeout_seconds?, cwd?})`: one `/bin/sh -c` command in the workspace. */
export function createShellTool(installationWorkspace: string): AnyTool {
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
      const workspace = await ensureWorkspace(workspaceOf(context, installationWorkspace));
      const outcome = await runCommand({
        command: input.command,
        cwd: await workingFolder(workspace, input.cwd),
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
