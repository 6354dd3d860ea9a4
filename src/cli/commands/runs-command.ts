import type { Command } from 'commander';
import { ConfigurationError, runStatusSchema, type RunRecord, type RunStatus } from '../../core/index.js';
import { readableOutput } from '../../security/index.js';
import { EXIT, parsePositiveInteger } from '../command-errors.js';
import { formatCostSum, formatExactCost } from '../event-line/index.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function parseStatus(value: string, previous: RunStatus[] = []): RunStatus[] {
  const parsed = runStatusSchema.safeParse(value);
  if (!parsed.success) throw new ConfigurationError('--status', `must be one of ${runStatusSchema.options.join(', ')}, got "${value}".`, 'Repeat --status to list several, e.g. --status running --status waiting.');
  return [...previous, parsed.data];
}

function statusText(run: RunRecord): string {
  return run.haltReason === null || run.haltReason === run.status ? run.status : `${run.status} (${run.haltReason})`;
}

function runLine(run: RunRecord): string {
  const task = run.task.length > 60 ? `${run.task.slice(0, 59)}…` : run.task;
  return `${run.id}  ${run.createdAt.slice(0, 19).replace('T', ' ')}  ${run.kind.padEnd(9)}  ${statusText(run).padEnd(24)}  ${task}`;
}

function runReport(run: RunRecord): string {
  const lines = [
    `run        ${run.id} (${run.kind})`,
    `task       ${run.task}`,
    `model      ${run.model}`,
    `status     ${statusText(run)}`,
    ...(run.error === null ? [] : [`error      ${run.error}`]),
    ...(run.answer === null ? [] : [`answer     ${readableOutput(run.answer)}`]),
    `llm calls  ${run.llmCalls} (${run.inputTokens} in / ${run.outputTokens} out tokens, ${formatCostSum(run, formatExactCost)})`,
    `started    ${run.createdAt}${run.owner === null ? '' : ` by pid ${run.owner.pid} on ${run.owner.host}`}`,
    `updated    ${run.updatedAt}`,
    ...(run.logFile === null ? [] : [`log        ${run.logFile}`]),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerRunsCommand(program: Command): void {
  const runs = program.command('runs').description('The runs Forge has recorded: agent runs, convergence runs, skill replays and direct tool calls.');

  runs
    .command('list')
    .description('List recorded runs, newest first. A run whose process died is shown failed (interrupted).')
    .option('--status <status>', `only runs with this status (${runStatusSchema.options.join('|')}); repeatable`, parseStatus)
    .option('--limit <n>', 'at most this many runs', parsePositiveInteger('--limit'), 20)
    .option('--json', 'print JSON')
    .action(async (options: { status?: RunStatus[]; limit: number; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { runView } = await import('../../runs/index.js');
        const found = await runtime.runs.list({ limit: options.limit, ...(options.status === undefined ? {} : { statuses: options.status }) });
        if (json) printJson({ runs: found.map(runView) });
        else printOut(found.length === 0 ? 'No runs recorded yet: start one with `forge run "<task>"`.\n' : `${found.map(runLine).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  runs
    .command('show')
    .description('Show one recorded run: what it was, how it ended, what it cost, and where its run log is.')
    .argument('<run-id>', 'the run id (from `forge runs list` or a run\'s --json output), or a unique prefix of it')
    .option('--json', 'print JSON')
    .action(async (runId: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { runView } = await import('../../runs/index.js');
        const run = await runtime.runs.get(runId);
        if (json) printJson(runView(run));
        else printOut(runReport(run));
        return EXIT.ok;
      });
    });

  runs
    .command('cancel')
    .description('Cancel a run that waits for an approval (its waiting calls never run), or in the scaled mode one that is queued or runs on a worker.')
    .argument('<run-id>', 'the run (its id or a unique prefix)')
    .option('--reason <text>', 'why (recorded)', 'cancelled from the command line')
    .option('--json', 'print JSON')
    .action(async (reference: string, options: { reason: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { cancelRun } = await import('../../compose/index.js');
        const { runView } = await import('../../runs/index.js');
        const run = await cancelRun(runtime, reference, options.reason);
        if (json) printJson(runView(run));
        else printOut(`Cancelled run ${run.id}${run.status === 'cancelled' ? '' : ` (it is ${run.status} now)`}.\n`);
        return EXIT.ok;
      });
    });

  runs
    .command('delete')
    .description('Delete runs with everything recorded under them: events, steps, model calls, checkpoint, approvals and the run log file.')
    .argument('<run-id...>', 'the runs (ids or unique prefixes); nothing is deleted unless every one is found')
    .option('--force', 'delete a run that is running or waiting for an approval, too')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nA running or waiting run is refused without --force: stop it (Ctrl-C) or cancel it (`forge runs cancel`) first.\nSkills saved from a run keep their own copy of its recording; deleting the run leaves them whole.')
    .action(async (references: string[], options: { force?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const deleted = await runtime.runs.delete(references, { force: options.force === true });
        if (json) printJson({ deleted: deleted.map((run) => ({ run_id: run.runId, log_file: run.logFile })) });
        else printOut(deleted.map((run) => `Deleted run ${run.runId}${run.logFile === null ? '' : ` and its log ${run.logFile}`}.\n`).join(''));
        return EXIT.ok;
      });
    });
}
