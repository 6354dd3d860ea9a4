import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, rmdir, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureCapped, type CappedCapture } from './capped-capture.js';
import { killCommandProcesses, startTimeOf, type CommandIdentity } from './process-tree.js';

export interface CommandRequest {
  /** The program and its arguments: `/bin/sh -c <command>`, or the same inside an isolation boundary. */
  readonly argv: readonly [string, ...string[]];
  /** The absolute folder the shell starts in. */
  readonly cwd: string;
  /** The whole environment the shell gets. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The most bytes kept of stdout, and of stderr. */
  readonly outputLimitBytes: number;
  /** Aborting it kills the command like a timeout does. */
  readonly signal: AbortSignal;
}

export interface CommandOutcome {
  /** The shell's exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  /** How it ended: by itself, killed at the timeout, or killed because the request's signal aborted. */
  readonly ending: 'exited' | 'timed-out' | 'cancelled';
  readonly stdout: CappedCapture;
  readonly stderr: CappedCapture;
  /**
   * Its output pipes stayed open after every process of the command that could be found was killed:
   * some process it started is still running out of reach (see `killCommandProcesses`).
   */
  readonly pipesHeldOpen: boolean;
  readonly durationMs: number;
}

/** How long the output pipes may stay open once the command's processes are dead. */
const pipeCloseGraceMs = 500;

/**
 * Runs `argv` (a shell command) with stdin on /dev/null, in its own session and process group (so a kill
 * reaches all of it, and it has no terminal to read from). When the shell ends, whatever it left running
 * (a background job, a daemon) is killed too: nothing a call starts outlives it. At the timeout, or when
 * the request's signal aborts, every process of the command is stopped and killed at once.
 */
export async function runCommand(request: CommandRequest): Promise<CommandOutcome> {
  const started = performance.now();
  const marker = await openMarker();
  let child;
  try {
    const [file, ...args] = request.argv;
    child = spawn(file, args, {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe', marker.handle.fd],
      detached: true,
    });
  } catch (error) {
    await marker.handle.close();
    throw error;
  }
  if (child.pid === undefined) {
    await marker.handle.close();
    const [error] = (await once(child, 'error')) as [Error];
    throw error;
  }
  const identity: CommandIdentity = { root: child.pid, startTime: startTimeOf(child.pid), marker: marker.link };
  const stdout = captureCapped(request.outputLimitBytes);
  const stderr = captureCapped(request.outputLimitBytes);
  // Both exist: stdio 1 and 2 are pipes.
  const [stdoutPipe, stderrPipe] = [child.stdout!, child.stderr!];
  stdoutPipe.on('data', (chunk: Buffer) => stdout.append(chunk));
  stderrPipe.on('data', (chunk: Buffer) => stderr.append(chunk));
  const pipesClosed = Promise.all([once(stdoutPipe, 'close'), once(stderrPipe, 'close')]);

  let ending: CommandOutcome['ending'] = 'exited';
  let killing: Promise<void> | undefined;
  const stop = (reason: CommandOutcome['ending']) => {
    if (killing !== undefined) return;
    ending = reason;
    killing = killCommandProcesses(identity);
  };
  const timer = setTimeout(() => stop('timed-out'), request.timeoutMs);
  const onAbort = () => stop('cancelled');
  request.signal.addEventListener('abort', onAbort, { once: true });
  if (request.signal.aborted) onAbort();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve({ code, signal });
    });
  });
  // The child holds its own copy of the marker; from now on only the command's processes hold it.
  await marker.handle.close();

  const status = await exited;
  await killing;
  await killCommandProcesses(identity);
  const pipesHeldOpen = !(await settlesWithin(pipesClosed, pipeCloseGraceMs));
  if (pipesHeldOpen) {
    stdoutPipe.destroy();
    stderrPipe.destroy();
  }
  return { exitCode: status.code, exitSignal: status.signal, ending, stdout, stderr, pipesHeldOpen, durationMs: performance.now() - started };
}

/**
 * A descriptor every process of the command inherits, on a folder made for this call and removed at
 * once: no other process has one, so holding it marks a process as the command's own, and nothing is
 * left on disk.
 */
async function openMarker(): Promise<{ handle: FileHandle; link: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'forge-shell-'));
  try {
    return { handle: await open(folder, 'r'), link: `${folder} (deleted)` };
  } finally {
    await rmdir(folder);
  }
}

/** Whether the promise settles within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}
