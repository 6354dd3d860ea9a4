import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { NotFoundError } from '../../core/index.js';
import { readRunLog, totalsFromEvents } from '../../runlog/index.js';
import { EXIT, reportError } from '../command-errors.js';

/** The newest run log in FORGE_HOME/runs (names start with the start time, so they sort). */
function newestRunLog(home: string): string {
  const folder = path.join(home, 'runs');
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    names = [];
  }
  const newest = names.at(-1);
  if (newest === undefined) throw new NotFoundError('run log', folder, 'Run `forge run "<task>"` first, or pass a run log file.');
  return path.join(folder, newest);
}

function formatCost(cost: number | null): string {
  return cost === null ? 'unknown (a model without a known price)' : `$${cost.toFixed(6)}`;
}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('Add up a run log: model calls, tokens, dollars, tool calls and errors (default: the newest run).')
    .argument('[run.jsonl]', 'a run log file (FORGE_HOME/runs/…)')
    .option('--json', 'print JSON')
    .action(async (file: string | undefined, options: { json?: boolean }) => {
      const json = options.json === true;
      try {
        const { loadConfig } = await import('../../runtime/index.js');
        const target = file ?? newestRunLog(loadConfig(process.env).home);
        const { events, error } = await readRunLog(target);
        const totals = totalsFromEvents(events);
        if (json) {
          process.stdout.write(`${JSON.stringify({ file: target, ...totals, ...(error === undefined ? {} : { error: error.toJSON() }) }, null, 2)}\n`);
        } else {
          const tools = Object.entries(totals.tools).map(([name, count]) => `${name}×${count}`).join(', ') || 'none';
          process.stdout.write(
            [
              `run        ${totals.run_id ?? '?'}  (${target})`,
              `task       ${totals.task ?? '?'}`,
              `model      ${totals.model ?? '?'}`,
              `status     ${totals.status ?? 'unfinished'}${totals.halt_reason === null ? '' : ` (${totals.halt_reason})`}`,
              `llm calls  ${totals.llm_calls}`,
              `tokens     ${totals.tokens.input} in / ${totals.tokens.output} out`,
              `cost       ${formatCost(totals.cost_usd)}`,
              `tool calls ${totals.tool_calls} (${totals.tool_errors} failed): ${tools}`,
              '',
            ].join('\n'),
          );
          if (error !== undefined) process.stderr.write(`forge: ${error.message}\n`);
        }
        process.exitCode = error === undefined ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
