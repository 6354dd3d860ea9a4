import { NotFoundError, type ApprovalRecord, type ConversationRecord, type ErrorInfo, type RunRecord } from '../../core/index.js';
import { ApiError, type RouteContext } from './api-route.js';

/** The records a request may touch: the caller's own, by the rules of `RouteContext.owns`. */

/** A conversation of the caller's; others' are answered as missing. */
export async function requireOwnedConversation(context: RouteContext, id: string): Promise<ConversationRecord> {
  const conversation = await context.runtime.store.conversations.get(id);
  if (conversation === undefined || !context.owns(conversation.userId)) throw new NotFoundError('conversation', id, 'List conversations with GET /api/v1/conversations.');
  return conversation;
}

/**
 * A run of the caller's, by id. The operator may name it by a unique prefix like the CLI; an account
 * names it whole, so a prefix cannot probe for other accounts' runs. Others' runs are answered as missing.
 */
export async function requireOwnedRun(context: RouteContext, id: string): Promise<RunRecord> {
  const missing = () => new NotFoundError('run', id, 'List runs with GET /api/v1/runs.');
  const run = await context.runtime.runs.get(id).catch((error: unknown) => {
    if (context.principal?.via !== 'operator') throw missing();
    throw error;
  });
  if (!context.owns(run.userId) || (context.principal?.via !== 'operator' && run.id !== id)) throw missing();
  return run;
}

/** The records (approvals, grants) of runs the caller owns. */
export async function ownedApprovals<Record extends Pick<ApprovalRecord, 'runId'>>(context: RouteContext, approvals: readonly Record[]): Promise<Record[]> {
  if (context.principal?.via === 'operator') return [...approvals];
  const owned = new Map<string, boolean>();
  for (const approval of approvals) {
    if (!owned.has(approval.runId)) owned.set(approval.runId, await requireOwnedRun(context, approval.runId).then(() => true, () => false));
  }
  return approvals.filter((approval) => owned.get(approval.runId) === true);
}

/** The account new records of this request belong to: none for the operator. */
export function newRecordOwner(context: RouteContext): string | null {
  return context.principal?.via === 'operator' ? null : (context.principal?.userId ?? null);
}

/** The service key a request came with, when it came with one: its quota counts the runs it starts. */
export function requestApiKey(context: RouteContext): string | null {
  return context.principal?.via === 'api-key' ? context.principal.credentialId : null;
}

/** Whom a run a request starts is for: its account (none for the operator) and the key it came with (quotas count both). */
export function runPrincipal(context: RouteContext): { readonly userId: string | null; readonly apiKeyId: string | null } {
  return { userId: newRecordOwner(context), apiKeyId: requestApiKey(context) };
}

/**
 * The signed-in account a per-account route acts for; `AccountsNotEnabled` (404) on a server without
 * accounts, where `what` says what the route keeps per account.
 */
export function signedInAccount(context: RouteContext, what: string): string {
  const userId = context.principal?.userId;
  if (context.server.auth !== 'accounts' || userId === undefined || userId === null) {
    throw new ApiError(404, 'AccountsNotEnabled', `${what} This server runs without accounts (auth: ${context.server.auth}).`, 'Add an account (forge users add <email> --admin) and start the server with --auth accounts.');
  }
  return userId;
}

/** A run's error as an answer shows it: name, message and hint, nothing else of it. */
export function errorView(error: ErrorInfo | null): { name: string; message: string; hint?: string } | null {
  return error === null ? null : { name: error.name, message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) };
}
