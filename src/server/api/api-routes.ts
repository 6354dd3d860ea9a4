import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ConfigurationError, NotFoundError, type ConversationRecord, type RunRecord } from '../../core/index.js';
import { approvalGrantView, approvalView, runView } from '../../runs/index.js';
import { answerApproval, cancelRun, listApprovals, listGrants, revokeGrant } from '../../compose/index.js';
import { FORGE_VERSION } from '../../version.js';
import {
  approvalAnswerRequestSchema,
  approvalAnswerSchema,
  approvalGrantListSchema,
  approvalGrantSchema,
  approvalListSchema,
  cancelRunRequestSchema,
  conversationDetailSchema,
  conversationListSchema,
  conversationSchema,
  createConversationRequestSchema,
  sendMessageRequestSchema,
  healthSchema,
  readySchema,
  runListQuerySchema,
  runListSchema,
  runSchema,
  startedRunSchema,
  startRunRequestSchema,
  type ApiConversation,
  type ApiRun,
} from '../../contract/index.js';
import { accountRoutes } from './account-routes.js';
import { agentRoutes } from './agent-routes.js';
import { ApiError, type ApiRoute } from './api-route.js';
import { newRecordOwner, ownedApprovals, requireOwnedConversation, requireOwnedRun, runPrincipal } from './owned-records.js';
import { marketplaceRoutes } from './marketplace-routes.js';
import { providerKeyRoutes } from './provider-key-routes.js';
import { skillRoutes } from './skill-routes.js';
import { installationRoutes } from './installation-routes.js';
import { toolRoutes } from './tool-routes.js';
import { policyRoutes } from './policy-routes.js';
import { refuseWhileShuttingDown, startedRunAnswer } from './started-runs.js';
import { usageRoutes } from './usage-routes.js';
import { quotaRoutes } from './quota-routes.js';
import { runEventStream } from './run-event-stream.js';

export { ApiError, type ApiRoute, type RouteContext } from './api-route.js';

/** A run as the API shows it: Forge's run view without where it runs (its process and the log's path on the server). */
export function apiRunView(run: RunRecord): ApiRun {
  const { owner: _owner, log_file: _logFile, ...shown } = runView(run);
  return shown;
}

function apiConversationView(conversation: ConversationRecord): ApiConversation {
  return { conversation_id: conversation.id, title: conversation.title, created_at: conversation.createdAt };
}


/** Where a reconnecting reader left off: `Last-Event-ID` (the last seq it got), or `?after=`; -1 for the start. */
function lastSeqOf(request: Request): number {
  const header = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after');
  if (header === null || header.trim() === '') return -1;
  const seq = Number(header);
  if (!Number.isInteger(seq) || seq < -1) throw new ApiError(400, 'InvalidLastEventId', `Last-Event-ID must be the seq of an event (a whole number), got "${header.slice(0, 40)}".`, 'Send back the id of the last event received.');
  return seq;
}

/** Every route of the API. */
export const apiRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/health',
    root: true,
    summary: 'Liveness: the process answers.',
    access: 'public',
    response: healthSchema,
    handle: async () => ({ status: 'ok', version: FORGE_VERSION }),
  },
  {
    method: 'get',
    path: '/ready',
    root: true,
    summary: 'Readiness: whether the server starts new work, and how many runs it runs.',
    access: 'public',
    response: readySchema,
    handle: async ({ runtime, server }) => ({ status: server.shuttingDown ? 'shutting_down' : 'ready', active_runs: runtime.runs.activeRunIds().length }),
  },
  {
    method: 'post',
    path: '/runs',
    summary: 'Start an agent run; its events stream from events_url. Calls that need approval pause it (waiting).',
    access: 'runs:write',
    body: startRunRequestSchema,
    response: startedRunSchema,
    status: 202,
    async handle(context) {
      refuseWhileShuttingDown(context);
      const body = startRunRequestSchema.parse(context.body);
      const { runtime } = context;
      if (body.conversation_id !== undefined) await requireOwnedConversation(context, body.conversation_id);
      // Runs started over the API always wait for their approvals: the owner answers through the API.
      return startedRunAnswer(
        await runtime.runs.submit(
          {
            kind: body.converge === true ? 'converge_task' : 'agent_task',
            task: body.task,
            ...(body.model === undefined ? {} : { model: body.model }),
            ...(body.tools === undefined ? {} : { tools: body.tools }),
            ...(body.conversation_id === undefined ? {} : { conversation_id: body.conversation_id }),
            ...(body.max_iterations === undefined ? {} : { max_iterations: body.max_iterations }),
            ...(body.policy_rules === undefined ? {} : { policy_rules: body.policy_rules }),
          },
          runPrincipal(context),
        ),
      );
    },
  },
  {
    method: 'get',
    path: '/runs',
    summary: 'Recorded runs, newest first, a page at a time.',
    access: 'runs:read',
    query: runListQuerySchema,
    response: runListSchema,
    async handle({ runtime, query, ownedBy }) {
      const parsed = runListQuerySchema.parse(query);
      const statuses = parsed.status === undefined ? undefined : Array.isArray(parsed.status) ? parsed.status : [parsed.status];
      const found = await runtime.runs.list({
        limit: parsed.limit + 1,
        ...(statuses === undefined ? {} : { statuses }),
        ...(parsed.cursor === undefined ? {} : { before: parsed.cursor }),
        ...(ownedBy === undefined ? {} : { ownedBy }),
      });
      const page = found.slice(0, parsed.limit);
      return { runs: page.map(apiRunView), next_cursor: found.length > parsed.limit ? (page.at(-1)?.id ?? null) : null };
    },
  },
  {
    method: 'get',
    path: '/runs/:run_id',
    summary: 'One run.',
    access: 'runs:read',
    response: runSchema,
    handle: async (context) => apiRunView(await requireOwnedRun(context, context.params['run_id']!)),
  },
  {
    method: 'post',
    path: '/runs/:run_id/cancel',
    summary: 'Cancel a run this server runs, or one that waits for an approval.',
    access: 'runs:write',
    body: cancelRunRequestSchema,
    response: runSchema,
    async handle(context) {
      const { runtime } = context;
      const run = await requireOwnedRun(context, context.params['run_id']!);
      const runId = run.id;
      const reason = cancelRunRequestSchema.parse(context.body ?? {}).reason ?? 'cancelled through the API';
      return apiRunView(await cancelRun(runtime, runId, reason));
    },
  },
  {
    method: 'post',
    path: '/runs/:run_id/resume',
    summary: 'Go on with a waiting or interrupted run from its last checkpoint.',
    access: 'runs:write',
    response: startedRunSchema,
    status: 202,
    async handle(context) {
      refuseWhileShuttingDown(context);
      const run = await requireOwnedRun(context, context.params['run_id']!);
      return startedRunAnswer(await context.runtime.runs.submit({ kind: 'resume', run_id: run.id }, runPrincipal(context)));
    },
  },
  {
    method: 'get',
    path: '/runs/:run_id/events',
    summary: 'The run\'s events as Server-Sent Events (id = seq); send Last-Event-ID to get exactly the events after it. Open streams are capped per account and in all (429 with Retry-After).',
    access: 'runs:read',
    response: 'event-stream',
    async handle(context) {
      const { runtime, request, server } = context;
      const run = await requireOwnedRun(context, context.params['run_id']!);
      const slot = server.eventStreams.open(context.principal);
      return runEventStream(runtime, run.id, lastSeqOf(request), { signal: request.signal, shutdown: server.shutdownSignal, slot, limits: server.eventStreams.limits, connection: context.connection });
    },
  },
  {
    method: 'get',
    path: '/runs/:run_id/log',
    summary: 'The run log (JSON lines) as a download.',
    access: 'runs:read',
    response: 'ndjson',
    async handle(context) {
      const run = await requireOwnedRun(context, context.params['run_id']!);
      if (run.logFile === null) throw new NotFoundError('run log', run.id, 'This run was recorded before run logs were kept with their runs.');
      try {
        await stat(run.logFile);
      } catch {
        throw new NotFoundError('run log', run.id, 'Its log file is gone from the server (deleted or moved).');
      }
      return new Response(Readable.toWeb(createReadStream(run.logFile)) as ReadableStream, {
        headers: { 'content-type': 'application/x-ndjson', 'content-disposition': `attachment; filename="forge-run-${run.id}.jsonl"` },
      });
    },
  },
  {
    method: 'get',
    path: '/conversations',
    summary: 'Conversations, newest first.',
    access: 'conversations:read',
    response: conversationListSchema,
    handle: async ({ runtime, ownedBy }) => ({ conversations: (await runtime.store.conversations.list({ limit: 100, ...(ownedBy === undefined ? {} : { ownedBy }) })).map(apiConversationView) }),
  },
  {
    method: 'post',
    path: '/conversations',
    summary: 'Start a conversation.',
    access: 'conversations:write',
    body: createConversationRequestSchema,
    response: conversationSchema,
    async handle(context) {
      const { runtime } = context;
      const parsed = createConversationRequestSchema.parse(context.body ?? {});
      return apiConversationView(await runtime.store.conversations.create({ title: parsed.title === undefined ? null : runtime.redactor.redactText(parsed.title), userId: newRecordOwner(context) }));
    },
  },
  {
    method: 'get',
    path: '/conversations/:conversation_id',
    summary: 'A conversation with its messages, oldest first.',
    access: 'conversations:read',
    response: conversationDetailSchema,
    async handle(context) {
      const { runtime } = context;
      const conversation = await requireOwnedConversation(context, context.params['conversation_id']!);
      const messages = await runtime.store.conversations.listMessages(conversation.id);
      return {
        conversation: apiConversationView(conversation),
        messages: messages.map((message) => ({ message_id: message.id, run_id: message.runId, role: message.role, content: message.content, model: message.model, created_at: message.createdAt })),
      };
    },
  },
  {
    method: 'post',
    path: '/conversations/:conversation_id/messages',
    summary: 'Send a message: an agent run answers it in the conversation; its events (tool calls included) stream from events_url.',
    access: 'conversations:write',
    body: sendMessageRequestSchema,
    response: startedRunSchema,
    status: 202,
    async handle(context) {
      refuseWhileShuttingDown(context);
      const body = sendMessageRequestSchema.parse(context.body);
      const { runtime } = context;
      const conversation = await requireOwnedConversation(context, context.params['conversation_id']!);
      if (body.agent !== undefined && body.tools !== undefined) throw new ConfigurationError('tools', 'cannot be combined with agent: the agent says its tools.');
      const common = {
        task: body.content,
        conversation_id: conversation.id,
        ...(body.model === undefined ? {} : { model: body.model }),
      };
      return startedRunAnswer(
        await runtime.runs.submit(
          body.agent === undefined
            ? { kind: 'agent_task', ...common, ...(body.tools === undefined ? {} : { tools: body.tools }) }
            : { kind: 'agent_definition', ...common, agent: body.agent, context: 'chat', ...(body.params === undefined ? {} : { params: Object.fromEntries(Object.entries(body.params).map(([name, value]) => [name, String(value)])) }) },
          runPrincipal(context),
        ),
      );
    },
  },
  {
    method: 'get',
    path: '/approvals',
    summary: 'Calls waiting for an approval, oldest first.',
    access: 'runs:read',
    response: approvalListSchema,
    handle: async (context) => ({ approvals: (await ownedApprovals(context, await listApprovals(context.runtime))).map(approvalView) }),
  },
  ...(['approve', 'deny'] as const).map(
    (verb): ApiRoute => ({
      method: 'post',
      path: `/approvals/:run_id/:call_id/${verb}`,
      summary: verb === 'approve' ? 'Approve a waiting call: it runs once and its run goes on.' : 'Deny a waiting call: it never runs; the model is told the reason.',
      access: 'approvals:write',
      body: approvalAnswerRequestSchema,
      response: approvalAnswerSchema,
      async handle(context) {
        const body = approvalAnswerRequestSchema.parse(context.body ?? {});
        if (verb === 'deny' && (body.reason === undefined || body.reason.trim() === '')) throw new ConfigurationError('reason', 'is required for a denial: the model is told why.');
        const run = await requireOwnedRun(context, context.params['run_id']!);
        const answered = await answerApproval(context.runtime, {
          runId: run.id,
          callId: context.params['call_id']!,
          decision: verb === 'approve' ? 'approved' : 'denied',
          ...(body.reason === undefined ? {} : { reason: body.reason }),
          ...(body.digest === undefined ? {} : { digest: body.digest }),
          ...(body.always === undefined ? {} : { always: body.always }),
          answeredBy: context.principal?.userId ?? 'operator',
          background: true,
        });
        return { approval: approvalView(answered.approval), grant: answered.grant === null ? null : approvalGrantView(answered.grant), resumed: answered.resuming, resume_error: answered.resumeError };
      },
    }),
  ),
  {
    method: 'get',
    path: '/approvals/grants',
    summary: 'Standing "approve always" grants of the runs the caller owns.',
    access: 'runs:read',
    response: approvalGrantListSchema,
    async handle(context) {
      return { grants: (await ownedApprovals(context, await listGrants(context.runtime))).map(approvalGrantView) };
    },
  },
  {
    method: 'post',
    path: '/approvals/grants/:grant_id/revoke',
    summary: 'Revoke an "approve always" grant: the next call of its tool asks again.',
    access: 'approvals:write',
    response: approvalGrantSchema,
    async handle(context) {
      const grantId = context.params['grant_id']!;
      const grant = (await listGrants(context.runtime)).find((each) => each.id === grantId);
      if (grant === undefined) throw new NotFoundError('approval grant', grantId, 'See the standing grants at GET /api/approvals/grants.');
      await requireOwnedRun(context, grant.runId);
      return { grant: approvalGrantView(await revokeGrant(context.runtime, grantId, context.principal?.userId ?? 'operator')) };
    },
  },
  ...policyRoutes,
  ...agentRoutes,
  ...accountRoutes,
  ...skillRoutes,
  ...marketplaceRoutes,
  ...providerKeyRoutes,
  ...toolRoutes,
  ...installationRoutes,
  ...usageRoutes,
  ...quotaRoutes,
];

