import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigurationError, RunLogError } from '../../core/index.js';
import type { RunLogEntry } from '../../runs/run-log/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { formatEventLine } from '../event-line/index.js';
import { cliRedactor, printError, printJson, printOut } from '../terminal-output.js';

interface ReplayCommandOptions {
  last?: boolean;
  speed: number;
  paused?: boolean;
  tui: boolean;
  json?: boolean;
}

/**
 * `forge replay <run.jsonl|run-id|prefix|--last>`: shows a recorded run again from its run log alone (a
 * stored run is looked up only to find its log), through the same view
 * as a live run (on a terminal), as plain trace lines (`--no-tui` or not a terminal), or as the run's
 * totals (`--json`). A malformed or cut-off log replays up to the bad line, and an empty log or one
 * without `run-end` replays what it holds; then the file, line and problem are named and it exits 1.
 * Ctrl-C exits 130.
 */
export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('Replay a recorded run log in the terminal view, at the pace it was recorded.')
    .argument('[run]', 'a run log file (FORGE_HOME/runs/…), or a stored run by id or unique id prefix')
    .option('--last', 'replay the newest stored run')
    .option('--speed <x>', 'playback speed: 2 is twice as fast, 0.5 half; waits are capped at 2 s', parseSpeed, 1)
    .option('--paused', 'start paused, to step through events one at a time')
    .option('--no-tui', 'print one plain line per event, at once, instead of the view')
    .option('--json', "print only the run's totals as JSON")
    .addHelpText(
      'after',
      `
Keys in the view: space pause/play · s or → step one event · ↑ ↓ PgUp PgDn scroll the events (End: newest) · q quit.
Exit status: 0 for a whole run, 1 when the log has a bad line or ends without run-end (it is replayed up to there), 130 on Ctrl-C.

Examples:
  $ forge replay .forge/runs/2025-06-01T09-00-00-000Z-run-1.jsonl --speed 4
  $ forge replay 3f2c --speed 4              a stored run by a prefix of its id
  $ forge replay --last                      the newest run
  $ forge replay run.jsonl --paused          step through from the first event
  $ forge replay run.jsonl --no-tui | grep tool-error`,
    )
    .action(async (run: string | undefined, options: ReplayCommandOptions) => {
      process.exitCode = await replayCommand(run, options);
    });
}

/** The run log to replay: a file as given, else the log of the stored run the argument (or `--last`) names. */
async function runLogFile(run: string | undefined, options: ReplayCommandOptions): Promise<string> {
  if (run !== undefined && options.last === true) throw new ConfigurationError('--last', 'cannot be combined with a run: give one or the other.', 'e.g. forge replay --last, or forge replay 3f2c.');
  if (run === undefined && options.last !== true) throw new ConfigurationError('run', 'is missing: name a run log file, a run id (or a unique prefix), or pass --last.', 'e.g. forge replay --last; list runs with `forge runs list`.');
  // Something shaped like a path stays a path, so a mistyped file is reported as a missing file, not as an unknown run.
  if (run !== undefined && (/[\\/]|\.jsonl$/.test(run) || (await stat(run).catch(() => undefined))?.isFile() === true)) return run;
  const { openRuntime } = await import('../../compose/index.js');
  const runtime = await openRuntime(process.env, process.cwd(), { redactor: cliRedactor });
  try {
    return await runtime.runs.runLog(run);
  } finally {
    await runtime.close();
  }
}

async function replayCommand(run: string | undefined, options: ReplayCommandOptions): Promise<number> {
  const json = options.json === true;
  // Ctrl-C ends a replay like any interrupted command: 130, after the terminal is given back (`--json` keeps Node's default).
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  try {
    const file = await runLogFile(run, options);
    if (json) return await printTotals(file);
    process.on('SIGINT', onInterrupt);
    if (!options.tui || process.stdout.isTTY !== true) return await printTrace(file, interrupt.signal);
    const { readRunLog, unendedRunLogError } = await import('../../runs/run-log/index.js');
    const read = await readRunLog(file);
    const error = read.error ?? unendedRunLogError(file, read.last);
    // Ink and React load only when the view is shown.
    const { runReplayView } = await import('../tui/index.js');
    // A log written before secrets were redacted shows none of the secrets this process knows either.
    const events = read.events.map((event) => cliRedactor.redactValue(event));
    const closed = await runReplayView(events, { speed: options.speed, startPaused: options.paused === true, error, signal: interrupt.signal });
    return closed === 'interrupted' ? EXIT.cancelled : reportRunLogError(error);
  } catch (error) {
    return reportError(error, json);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function printTotals(file: string): Promise<number> {
  const { readRunLog, totalsFromEvents, unendedRunLogError } = await import('../../runs/run-log/index.js');
  const { events, error: badLine, last } = await readRunLog(file);
  const error = badLine ?? unendedRunLogError(file, last);
  const report = { file, event_count: events.length, ...totalsFromEvents(events), ...(error === undefined ? {} : { error: error.toJSON() }) };
  printJson(report);
  return error === undefined ? EXIT.ok : EXIT.failed;
}

// Streams rather than reading the whole file first, so a long log starts printing at once and a pipe
// (`| head`) sees lines as they are read.
async function printTrace(file: string, interrupted: AbortSignal): Promise<number> {
  const { iterateRunLogEntries, unendedRunLogError } = await import('../../runs/run-log/index.js');
  let last: RunLogEntry | undefined;
  try {
    for await (const entry of iterateRunLogEntries(file)) {
      if (interrupted.aborted) return EXIT.cancelled;
      printOut(`${formatEventLine(entry.event)}\n`);
      last = entry;
    }
  } catch (error) {
    if (error instanceof RunLogError) return reportRunLogError(error);
    throw error;
  }
  return interrupted.aborted ? EXIT.cancelled : reportRunLogError(unendedRunLogError(file, last));
}

/** The replay showed every event it could; this says why there were no more, when the log is not a whole run. */
function reportRunLogError(error: RunLogError | undefined): number {
  if (error === undefined) return EXIT.ok;
  printError(`forge: the replay stopped early: ${error.message}\n`);
  return EXIT.failed;
}

function parseSpeed(value: string): number {
  const speed = Number(value);
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new ConfigurationError('--speed', `must be a positive number, got "${value}".`, 'Use e.g. --speed 2 for twice as fast, --speed 0.5 for half.');
  }
  return speed;
}
