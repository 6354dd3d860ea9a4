import type { Command } from 'commander';
import { ConfigurationError, RunLogError } from '../../core/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { formatEventLine } from '../event-line/index.js';
import { cliRedactor, printError, printJson, printOut } from '../terminal-output.js';

interface ReplayCommandOptions {
  speed: number;
  paused?: boolean;
  tui: boolean;
  json?: boolean;
}

/**
 * `forge replay <run.jsonl>`: shows a recorded run again from its run log alone, through the same view
 * as a live run (on a terminal), as plain trace lines (`--no-tui` or not a terminal), or as the run's
 * totals (`--json`). A malformed or cut-off log replays up to the bad line, then names the file, line
 * and problem and exits non-zero.
 */
export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('Replay a recorded run log in the terminal view, at the pace it was recorded.')
    .argument('<run.jsonl>', 'a run log file (FORGE_HOME/runs/…)')
    .option('--speed <x>', 'playback speed: 2 is twice as fast, 0.5 half; waits are capped at 2 s', parseSpeed, 1)
    .option('--paused', 'start paused, to step through events one at a time')
    .option('--no-tui', 'print one plain line per event, at once, instead of the view')
    .option('--json', "print only the run's totals as JSON")
    .addHelpText(
      'after',
      `
Keys in the view: space pause/play · s or → step one event · q quit.

Examples:
  $ forge replay .forge/runs/2025-06-01T09-00-00-000Z-run-1.jsonl --speed 4
  $ forge replay run.jsonl --paused          step through from the first event
  $ forge replay run.jsonl --no-tui | grep tool-error`,
    )
    .action(async (file: string, options: ReplayCommandOptions) => {
      process.exitCode = await replayCommand(file, options);
    });
}

async function replayCommand(file: string, options: ReplayCommandOptions): Promise<number> {
  const json = options.json === true;
  try {
    if (json) return await printTotals(file);
    if (!options.tui || process.stdout.isTTY !== true) return await printTrace(file);
    const { readRunLog } = await import('../../runlog/index.js');
    const { events, error } = await readRunLog(file);
    // Ink and React load only when the view is shown.
    const { runReplayView } = await import('../tui/index.js');
    // A log written before secrets were redacted shows none of the secrets this process knows either.
    await runReplayView(events.map((event) => cliRedactor.redactValue(event)), { speed: options.speed, startPaused: options.paused === true, error });
    return reportRunLogError(error);
  } catch (error) {
    return reportError(error, json);
  }
}

async function printTotals(file: string): Promise<number> {
  const { readRunLog, totalsFromEvents } = await import('../../runlog/index.js');
  const { events, error } = await readRunLog(file);
  const report = { file, event_count: events.length, ...totalsFromEvents(events), ...(error === undefined ? {} : { error: error.toJSON() }) };
  printJson(report);
  return error === undefined ? EXIT.ok : EXIT.failed;
}

// Streams rather than reading the whole file first, so a long log starts printing at once and a pipe
// (`| head`) sees lines as they are read.
async function printTrace(file: string): Promise<number> {
  try {
    const { iterateRunLog } = await import('../../runlog/index.js');
    for await (const event of iterateRunLog(file)) printOut(`${formatEventLine(event)}\n`);
  } catch (error) {
    if (error instanceof RunLogError) return reportRunLogError(error);
    throw error;
  }
  return EXIT.ok;
}

function reportRunLogError(error: RunLogError | undefined): number {
  if (error === undefined) return EXIT.ok;
  printError(`forge: replay stopped at a bad line of the run log. ${error.message}\n`);
  return EXIT.failed;
}

function parseSpeed(value: string): number {
  const speed = Number(value);
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new ConfigurationError('--speed', `must be a positive number, got "${value}".`, 'Use e.g. --speed 2 for twice as fast, --speed 0.5 for half.');
  }
  return speed;
}
