import type { Command } from 'commander';
import type { ApprovalRecord } from '../../core/index.js';
import { ConfigurationError } from '../../core/index.js';
import { approvalView } from '../../runs/approval-view.js';
import { EXIT, errorLines, exitCodeForRun, reportError } from '../command-errors.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function approvalLine(approval: ApprovalRecord): string {
  const expiry = approval.expiresAt === null ? '' : `  expires ${approval.expiresAt.slice(0, 19).replace('T', ' ')}`;
  return `${approval.runId}  ${approval.callId}  ${approval.tool}  ${approval.status}  input ${approval.inputDigest.slice(0, 12)}${expiry}\n    ${approval.reason}${approval.answerReason === null ? '' : `\n    answer: ${approval.answerReason}`}`;
}

interface AnswerOptions {
  reason?: string;
  digest?: string;
  json?: boolean;
}

async function answer(decision: 'approved' | 'denied', runId: string, callId: string, options: AnswerOptions): Promise<void> {
  const json = options.json === true;
  if (decision === 'denied' && (options.reason === undefined || options.reason.trim() === '')) {
    process.exitCode = reportError(new ConfigurationError('--reason', 'is required for a denial: the model is told why.', 'e.g. forge approvals deny <run-id> <call-id> --reason "not this account"'), json);
    return;
  }
  await withRuntime(json, async (runtime) => {
    const { answerApproval } = await import('../../runtime/index.js');
    const outcome = await answerApproval(runtime, {
      runId,
      callId,
      decision,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.digest === undefined ? {} : { digest: options.digest }),
    });
    if (json) {
      printJson({ approval: approvalView(outcome.approval), resumed: outcome.resumed });
    } else {
      printOut(`${decision === 'approved' ? 'Approved' : 'Denied'} ${outcome.approval.tool} (${callId}) of run ${outcome.approval.runId}.\n`);
      if (outcome.resumed === null) {
        printOut('The run goes on in the process that waits for it (or once its other requests are answered).\n');
      } else {
        printOut(`Resumed run ${outcome.approval.runId} here: ${outcome.resumed.status} (${outcome.resumed.halt_reason}).\n`);
        if (outcome.resumed.answer !== null) printOut(`${outcome.resumed.answer}\n`);
        if (outcome.resumed.error !== null) printError(errorLines(outcome.resumed.error));
      }
    }
    return outcome.resumed === null ? EXIT.ok : exitCodeForRun(outcome.resumed.status);
  });
}

export function registerApprovalsCommand(program: Command): void {
  const approvals = program
    .command('approvals')
    .description('Calls that wait for a person: list them, approve or deny them (from any terminal, after a restart too).')
    .addHelpText(
      'after',
      `
A call the policy sends for approval does not block its run: the run pauses (status waiting) with its
state checkpointed. An answer is bound to the run id, the call id and the digest of the call's input,
and is used once; a denied call never runs and the model is told the reason. A request nobody answers
within FORGE_APPROVAL_TIMEOUT seconds (default 3600) ends its run failed (approval_expired).

Examples:
  $ forge approvals list
  $ forge approvals approve 3f2c9a1b7e40 call_1
  $ forge approvals deny 3f2c9a1b7e40 call_1 --reason "not this customer"`,
    );

  approvals
    .command('list')
    .description('List pending approval requests, oldest first.')
    .option('--all', 'every request, answered, used and expired ones too')
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { listApprovals } = await import('../../runtime/index.js');
        const found = await listApprovals(runtime, { all: options.all === true });
        if (json) printJson({ approvals: found.map(approvalView) });
        else printOut(found.length === 0 ? 'No approval requests are pending.\n' : `${found.map(approvalLine).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  for (const [name, decision] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    approvals
      .command(name)
      .description(decision === 'approved' ? 'Approve a waiting call: it runs once, and its run goes on.' : 'Deny a waiting call: it never runs; the model is told the reason and the run goes on.')
      .argument('<run-id>', 'the run that waits (from `forge approvals list`), or a unique prefix of its id')
      .argument('<call-id>', 'the call it waits on')
      .option('--reason <text>', decision === 'approved' ? 'why (recorded)' : 'why not (required; the model is told)')
      .option('--digest <prefix>', "answer only if the call's input digest starts with this (what `forge approvals list` showed you)")
      .option('--json', 'print JSON')
      .action((runId: string, callId: string, options: AnswerOptions) => answer(decision, runId, callId, options));
  }
}
