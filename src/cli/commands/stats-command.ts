import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { NotFoundError, type RunLogError } from '../../core/index.js';
import type { AggregateTotals, RunTotals, UsageTotals } from '../../runlog/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { printError, printJson, printOut } from '../terminal-output.js';

/** The run logs in FORGE_HOME/runs, oldest first (names start with the start time, so they sort). */
function runLogs(home: string): string[] {
  const folder = path.join(home, 'runs');
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    names = [];
  }
  if (names.length === 0) throw new NotFoundError('run log', folder, 'Run `forge run "<task>"` first, or pass a run log file.');
  return names.map((name) => path.join(folder, name));
}

function formatCost(cost: number | null): string {
  return cost === null ? 'unknown (a model without a known price)' : `$${cost.toFixed(6)}`;
}

function formatUsage(usage: UsageTotals): string {
  return `${usage.llm_calls} calls, ${usage.tokens.input} in / ${usage.tokens.output} out tokens, ${formatCost(usage.cost_usd)}`;
}

function formatRatio(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(2);
}

function runReport(file: string, totals: RunTotals): string {
  const tools = Object.entries(totals.tools).map(([name, count]) => `${name}×${count}`).join(', ') || 'none';
  const lines = [
    `run        ${totals.run_id ?? '?'}  (${file})`,
    `task       ${totals.task ?? '?'}`,
    `model      ${totals.model ?? '?'}`,
    `status     ${totals.status ?? 'unfinished'}${totals.halt_reason === null ? '' : ` (${totals.halt_reason})`}`,
    `llm calls  ${totals.llm_calls}`,
    `tokens     ${totals.tokens.input} in / ${totals.tokens.output} out`,
    `cost       ${formatCost(totals.cost_usd)}`,
    `tool calls ${totals.tool_calls} (${totals.tool_errors} failed): ${tools}`,
  ];
  if (Object.keys(totals.per_model).length > 1) {
    for (const [model, usage] of Object.entries(totals.per_model)) lines.push(`  model ${model}: ${formatUsage(usage)}`);
  }
  for (const [tool, synthesis] of Object.entries(totals.syntheses)) {
    lines.push(`synthesized ${tool}: ${synthesis.status} after ${synthesis.revisions} revisions (${synthesis.verification_failures} failed verifications), ${formatUsage(synthesis)}`);
  }
  return `${lines.join('\n')}\n`;
}

function aggregateReport(files: readonly string[], totals: AggregateTotals): string {
  const halts = Object.entries(totals.halts_by_reason).map(([reason, count]) => `${reason} ${count}`).join(', ');
  const { synthesis } = totals;
  const lines = [
    `runs       ${totals.runs} run logs (${files.length === 1 ? files[0] : `${files[0]} … ${files.at(-1)}`})`,
    `halts      ${halts}`,
    `total      ${formatUsage(totals)}`,
    ...Object.entries(totals.per_model).map(([model, usage]) => `  model ${model}: ${formatUsage(usage)}`),
    `tool calls ${totals.tool_calls} (${totals.tool_errors} failed)`,
    `synthesis  ${synthesis.drafted} drafted, ${synthesis.promoted} promoted, ${synthesis.failed} failed; ` +
      `catch rate ${formatRatio(synthesis.catch_rate)} (${synthesis.caught} drafts failed a verification before the verdict); ` +
      `reuse ratio ${formatRatio(synthesis.reuse_ratio)} (${synthesis.tool_uses} uses)`,
    ...Object.entries(synthesis.per_tool).map(([tool, usage]) => `  tool ${tool} (${usage.status}): ${formatUsage(usage)}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('Add up run logs: model calls, tokens and dollars (per model), tool calls, halts by reason, and for synthesized tools the catch rate, reuse ratio and cost per tool.')
    .argument('[run.jsonl...]', 'run log files (default: the newest run in FORGE_HOME/runs)')
    .option('--all', 'add up every run log in FORGE_HOME/runs')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nOne file gives that run\'s figures; several files (or --all) give the totals across them.')
    .action(async (given: string[], options: { all?: boolean; json?: boolean }) => {
      const json = options.json === true;
      try {
        // Loaded on use, so `forge --help` and other commands start fast.
        const { loadConfig } = await import('../../runtime/index.js');
        const { aggregateTotals, readRunLog, totalsFromEvents } = await import('../../runlog/index.js');
        const files = given.length > 0 ? given : options.all === true ? runLogs(loadConfig(process.env).home) : runLogs(loadConfig(process.env).home).slice(-1);
        const reads = await Promise.all(files.map(async (file) => ({ file, ...(await readRunLog(file)) })));
        const errors: RunLogError[] = reads.flatMap((read) => (read.error === undefined ? [] : [read.error]));
        if (options.all !== true && files.length === 1) {
          const [read] = reads;
          const totals = totalsFromEvents(read!.events);
          if (json) printJson({ file: read!.file, ...totals, ...(read!.error === undefined ? {} : { error: read!.error.toJSON() }) });
          else printOut(runReport(read!.file, totals));
        } else {
          const totals = aggregateTotals(reads.map((read) => totalsFromEvents(read.events)));
          if (json) printJson({ files, ...totals, errors: errors.map((error) => error.toJSON()) });
          else printOut(aggregateReport(files, totals));
        }
        if (!json) for (const error of errors) printError(`forge: ${error.message}\n`);
        process.exitCode = errors.length === 0 ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
