import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import type { RunTotals, UsageTotals } from '../../runs/run-log/index.js';
import type { AggregateStats, RunStats, SynthesisFigures, ToolFigures } from '../../stats/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { formatCostSum, formatCount, formatExactCost, formatDuration, formatQuantity, formatSize } from '../event-line/index.js';
import { printError, printJson, printOut } from '../terminal-output.js';

function formatCost(usage: UsageTotals): string {
  return formatCostSum({ costUsd: usage.cost_usd, pricedCostUsd: usage.cost_usd_known, unpricedCalls: usage.unpriced_calls }, formatExactCost);
}

function formatUsage(usage: UsageTotals): string {
  return `${formatQuantity(usage.llm_calls, 'call')}, ${usage.tokens.input} in / ${usage.tokens.output} out tokens, ${formatCost(usage)}`;
}

function formatRatio(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(2);
}

/** The synthesis row, the same for one run and for many. */
function synthesisRow(synthesis: SynthesisFigures): string {
  return (
    `synthesis  ${synthesis.drafted} drafted, ${synthesis.promoted} promoted, ${synthesis.failed} failed; ` +
    `catch rate ${formatRatio(synthesis.catch_rate)} (${formatQuantity(synthesis.caught, 'draft')} failed a verification before the verdict); ` +
    `reuse ratio ${formatRatio(synthesis.reuse_ratio)} (${formatQuantity(synthesis.tool_uses, 'use')})`
  );
}

/** The per-tool table: one aligned row per tool under a header, names left, figures right; nothing without tool calls. */
function toolTable(tools: readonly ToolFigures[]): string[] {
  if (tools.length === 0) return [];
  const duration = (ms: number | null) => (ms === null ? '-' : formatDuration(ms));
  const rows = [
    ['tool', 'calls', 'failed', 'cached', 'p50', 'p95', 'in', 'out'],
    ...tools.map((tool) => [tool.tool, formatCount(tool.calls), formatCount(tool.failures), formatCount(tool.cache_hits), duration(tool.p50_ms), duration(tool.p95_ms), formatSize(tool.bytes_in), formatSize(tool.bytes_out)]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}`.trimEnd());
}

function runReport(file: string | null, totals: RunTotals, synthesis: SynthesisFigures, tools: readonly ToolFigures[]): string {
  const calls = Object.entries(totals.tools).map(([name, count]) => `${name}×${count}`).join(', ') || 'none';
  const lines = [
    `run        ${totals.run_id ?? '?'}  (${file ?? 'no run log recorded'})`,
    `task       ${totals.task ?? '?'}`,
    `model      ${totals.model ?? '?'}`,
    `status     ${totals.status ?? 'unfinished'}${totals.halt_reason === null ? '' : ` (${totals.halt_reason})`}`,
    `llm calls  ${totals.llm_calls}`,
    `tokens     ${totals.tokens.input} in / ${totals.tokens.output} out`,
    `cost       ${formatCost(totals)}`,
    `tool calls ${totals.tool_calls} (${totals.tool_errors} failed): ${calls}`,
    ...toolTable(tools),
    synthesisRow(synthesis),
  ];
  if (Object.keys(totals.per_model).length > 1) {
    for (const [model, usage] of Object.entries(totals.per_model)) lines.push(`  model ${model}: ${formatUsage(usage)}`);
  }
  for (const [tool, synthesis] of Object.entries(totals.syntheses)) {
    lines.push(
      `synthesized ${tool}: ${synthesis.status} after ${formatQuantity(synthesis.revisions, 'revision')} (${formatQuantity(synthesis.verification_failures, 'failed verification')}), ${formatUsage(synthesis)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function aggregateReport(source: string, { files, totals, tools }: AggregateStats): string {
  const halts = Object.entries(totals.halts_by_reason).map(([reason, count]) => `${reason} ${count}`).join(', ');
  const logs = files.length === 0 ? '' : files.length === 1 ? `: ${files[0]}` : `: ${files[0]} … ${files.at(-1)}`;
  const lines = [
    `runs       ${totals.runs} ${source}${logs}`,
    `halts      ${halts}`,
    `total      ${formatUsage(totals)}`,
    ...Object.entries(totals.per_model).map(([model, usage]) => `  model ${model}: ${formatUsage(usage)}`),
    `tool calls ${totals.tool_calls} (${totals.tool_errors} failed)`,
    ...toolTable(tools),
    synthesisRow(totals.synthesis),
    ...Object.entries(totals.synthesis.per_tool).map(([tool, usage]) => `  tool ${tool} (${usage.status}): ${formatUsage(usage)}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Prints one run's figures; the exit code says whether its log was read to the end. A log that could
 * not be read at all gets no report of zeros, only the error naming the file and line.
 */
function reportRunStats(stats: RunStats, json: boolean): number {
  const { per_tool: _perTool, ...synthesis } = stats.synthesis;
  const unread = stats.error !== undefined && stats.totals.run_id === null;
  if (json) printJson({ file: stats.file, ...stats.totals, synthesis, tool_usage: stats.tools, ...(stats.error === undefined ? {} : { error: stats.error.toJSON() }) });
  else if (!unread) printOut(runReport(stats.file, stats.totals, stats.synthesis, stats.tools));
  if (stats.error !== undefined && !json) printError(`forge: ${unread ? 'cannot read the run log' : 'the run log stops early'}: ${stats.error.message}\n`);
  return stats.error === undefined ? EXIT.ok : EXIT.failed;
}

/** Prints many runs added up; the exit code says whether every log was read to the end. */
function reportAggregateStats(stats: AggregateStats, source: string, json: boolean): number {
  if (json) printJson({ files: stats.files, ...stats.totals, tools: stats.tools, errors: stats.errors.map((error) => error.toJSON()) });
  else printOut(aggregateReport(source, stats));
  if (!json) for (const error of stats.errors) printError(`forge: ${error.message}\n`);
  return stats.errors.length === 0 ? EXIT.ok : EXIT.failed;
}

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('Add up runs: model calls, tokens and dollars (per model), tool calls (per tool: failures, cache hits, p50/p95 duration, bytes in and out), halts by reason, and for synthesized tools the catch rate, reuse ratio and cost per tool.')
    .argument('[run.jsonl...]', 'run log files to read instead of the store (e.g. logs copied from another machine)')
    .option('--all', 'add up every stored run (or every run log given)')
    .option('--run <run-id>', 'one stored run, by id or unique id prefix')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nWithout files: the newest stored run (or the one --run names), or with --all every stored run, added up by the database.\nOne file gives that run\'s figures; several files (or --all) give the totals across them.')
    .action(async (given: string[], options: { all?: boolean; run?: string; json?: boolean }) => {
      const json = options.json === true;
      try {
        if (options.run !== undefined && (given.length > 0 || options.all === true)) throw new ConfigurationError('--run', 'names one stored run: it cannot be combined with run log files or --all.');
        // Loaded on use, so `forge --help` and other commands start fast; the store alone, not the whole runtime.
        const [{ answerStats }, { openStats }] = await Promise.all([import('../../stats/index.js'), import('../../compose/open-stats.js')]);
        const answer = await answerStats({ files: given, all: options.all === true, ...(options.run === undefined ? {} : { run: options.run }) }, () => openStats(process.env));
        process.exitCode = answer.scope === 'run' ? reportRunStats(answer.stats, json) : reportAggregateStats(answer.stats, answer.source, json);
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
