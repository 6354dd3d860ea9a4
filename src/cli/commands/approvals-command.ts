import type { Command } from 'commander';
import type { ApprovalGrant, ApprovalRecord } from '../../core/index.js';
import { ConfigurationError } from '../../core/index.js';
import { approvalGrantView, approvalView } from '../../policy/approvals/approval-view.js';
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
  always?: boolean;
  json?: boolean;
}

function grantLine(grant: ApprovalGrant): string {
  const revoked = grant.revokedAt === null ? '' : `  revoked ${grant.revokedAt.slice(0, 19).replace('T', ' ')} by ${grant.revokedBy ?? '?'}`;
  return `${grant.id}  ${grant.tool}  ${grant.scope}  by ${grant.grantedBy}  from ${grant.callId}  ${grant.createdAt.slice(0, 19).replace('T', ' ')}${revoked}`;
}

async function answer(decision: 'approved' | 'denied', runId: string, callId: string, options: AnswerOptions): Promise<void> {
  const json = options.json === true;
  if (decision === 'denied' && (options.reason === undefined || options.reason.trim() === '')) {
    process.exitCode = reportError(new ConfigurationError('--reason', 'is required for a denial: the model is told why.', 'e.g. forge approvals deny <run-id> <call-id> --reason "not this account"'), json);
    return;
  }
  await withRuntime(json, async (runtime) => {
    const { answerApproval } = await import('../../compose/index.js');
    const outcome = await answerApproval(runtime, {
      runId,
      callId,
      decision,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.digest === undefined ? {} : { digest: options.digest }),
      ...(options.always === true ? { always: 'run' as const } : {}),
      answeredBy: 'cli',
    });
    if (json) {
      printJson({ approval: approvalView(outcome.approval), grant: outcome.grant === null ? null : approvalGrantView(outcome.grant), resumed: outcome.resumed, resume_error: outcome.resumeError });
    } else {
      printOut(`${decision === 'approved' ? 'Approved' : 'Denied'} ${outcome.approval.tool} (${callId}) of run ${outcome.approval.runId}.\n`);
      if (outcome.grant !== null) printOut(`Every later call of ${outcome.grant.tool} in this run is approved without asking (grant ${outcome.grant.id}; revoke with \`forge approvals revoke ${outcome.grant.id}\`).\n`);
      if (outcome.resumeError !== null) {
        printError(`The run could not go on, so it ended failed (interrupted); the answer stands.\n${errorLines(outcome.resumeError)}`);
        printError(`Once that is fixed: forge run --resume ${outcome.approval.runId}\n`);
      } else if (outcome.resumed === null) {
        printOut('The run goes on in the process that waits for it (or once its other requests are answered).\n');
      } else {
        printOut(`Resumed run ${outcome.approval.runId} here: ${outcome.resumed.status} (${outcome.resumed.halt_reason}).\n`);
        if (outcome.resumed.answer !== null) printOut(`${outcome.resumed.answer}\n`);
        if (outcome.resumed.error !== null) printError(errorLines(outcome.resumed.error));
      }
    }
    if (outcome.resumeError !== null) return EXIT.failed;
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
        const { listApprovals } = await import('../../compose/index.js');
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
    const command = approvals
      .command(name)
      .description(decision === 'approved' ? 'Approve a waiting call: it runs once, and its run goes on.' : 'Deny a waiting call: it never runs; the model is told the reason and the run goes on.')
      .argument('<run-id>', 'the run that waits (from `forge approvals list`), or a unique prefix of its id')
      .argument('<call-id>', 'the call it waits on')
      .option('--reason <text>', decision === 'approved' ? 'why (recorded)' : 'why not (required; the model is told)')
      .option('--digest <prefix>', "answer only if the call's input digest starts with this (what `forge approvals list` showed you)");
    if (decision === 'approved') command.option('--always', 'also approve every later call of this tool in this run without asking (recorded; revoke with `forge approvals revoke`)');
    command.option('--json', 'print JSON').action((runId: string, callId: string, options: AnswerOptions) => answer(decision, runId, callId, options));
  }

  approvals
    .command('grants')
    .description('List the standing "approve always" grants (--all: revoked ones too).')
    .option('--all', 'revoked grants too')
    .option('--run <run-id>', 'only the grants of this run')
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; run?: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { listGrants } = await import('../../compose/index.js');
        const runId = options.run === undefined ? undefined : (await runtime.runs.get(options.run)).id;
        const grants = await listGrants(runtime, { ...(runId === undefined ? {} : { runId }), ...(options.all === true ? { revoked: true } : {}) });
        if (json) printJson({ grants: grants.map(approvalGrantView) });
        else printOut(grants.length === 0 ? 'No "approve always" grants stand.\n' : `${grants.map(grantLine).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  approvals
    .command('revoke')
    .description('Revoke an "approve always" grant: the next call of its tool asks again.')
    .argument('<grant-id>', 'the grant (from `forge approvals grants`)')
    .option('--json', 'print JSON')
    .action(async (grantId: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { revokeGrant } = await import('../../compose/index.js');
        const grant = await revokeGrant(runtime, grantId, 'cli');
        if (json) printJson({ grant: approvalGrantView(grant) });
        else printOut(`Revoked ${grant.id}: calls of ${grant.tool} in ${grant.scope} ask for approval again.\n`);
        return EXIT.ok;
      });
    });
}
