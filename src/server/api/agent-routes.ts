import { z } from 'zod';
import { ForgeError } from '../../core/index.js';
import {
  agentChangeView,
  agentDefinitionSchema,
  agentDetailSchema,
  agentDetailView,
  agentDiffSchema,
  agentListSchema,
  agentSummaryView,
  agentVersionView,
  agentVersionsSchema,
  importAgentYaml,
  type AgentAuthor,
} from '../../agents/index.js';
import { agentServiceOf } from '../../compose/index.js';
import { ApiError, type ApiRoute, type RouteContext } from './api-route.js';
import { requireAdmin } from './admin-only.js';
import {
  agentDiffQuerySchema,
  agentEditedSchema,
  agentMessageSchema,
  agentRemovedSchema,
  agentRollbackRequestSchema,
  agentRunRequestSchema,
  agentYamlRequestSchema,
  startedRunSchema,
} from '../../contract/index.js';
import { newRecordOwner, runPrincipal } from './owned-records.js';
import { refuseWhileShuttingDown, startedRunAnswer } from './started-runs.js';

/**
 * Agent definitions are the installation's, like the policy: an agent's tool access is a policy scope
 * that can relax a risk default (never a block), so only an admin saves, rolls back or removes one.
 */
const adminsOnly = (context: RouteContext): void => requireAdmin(context, "Agent definitions are the installation's, and an agent's tool access can relax a risk default: only an admin changes them.", 'Ask an admin of this server; anyone signed in may read agents, and run them with runs:write.');

function authorOf(context: RouteContext, message: string | undefined): AgentAuthor {
  return { author: context.principal?.userId ?? 'operator', userId: newRecordOwner(context), ...(message === undefined ? {} : { message }) };
}

/** An edit as JSON: the whole changed definition, and why. */
const editJsonRequest = <Definition extends z.ZodType>(definition: Definition) => z.object({ definition, message: agentMessageSchema.optional() }).strict();
const createAgentRequestSchema = z.union([agentYamlRequestSchema, agentDefinitionSchema]);
const editAgentRequestSchema = z.union([agentYamlRequestSchema, editJsonRequest(agentDefinitionSchema)]);
// The service validates the definition itself with the same schema (credentials refused first, every field named).
const editJsonEnvelopeSchema = editJsonRequest(z.unknown());

interface DefinitionRequest {
  readonly definition: unknown;
  readonly message: string | undefined;
}

/**
 * The definition a body carries: `{yaml}` read as an agent file (safe on untrusted text; problems located
 * by line), or its JSON form as `fromJson` reads it.
 */
function definitionRequestOf(body: unknown, fromJson: (body: unknown) => DefinitionRequest): DefinitionRequest {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, 'yaml')) return fromJson(body);
  const { yaml, message } = agentYamlRequestSchema.parse(body);
  return { definition: importAgentYaml(yaml), message };
}

const slugOf = (context: RouteContext) => context.params['slug']!;

/**
 * Agent definitions over the API, the same resources as `forge agent …` through the same service:
 * anyone signed in lists, shows (`slug` or `slug@version`), exports, diffs and reads versions; an admin
 * creates, edits, rolls back and removes; a caller with `runs:write` runs one as a run of their own
 * that waits for its approvals, pinned to the version it ran.
 */
export const agentRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/agents',
    summary: 'The agent definitions, by slug.',
    access: 'signed-in',
    response: agentListSchema,
    handle: async ({ runtime }) => ({ agents: (await (await agentServiceOf(runtime)).list()).map(agentSummaryView) }),
  },
  {
    method: 'post',
    path: '/agents',
    summary: 'Create an agent from a definition (the definition as JSON, or {yaml}); it is version 1 and active (admin).',
    access: 'agents:write',
    body: createAgentRequestSchema,
    response: agentDetailSchema,
    status: 201,
    async handle(context) {
      adminsOnly(context);
      const { definition, message } = definitionRequestOf(context.body, (body) => ({ definition: body, message: undefined }));
      const agents = await agentServiceOf(context.runtime);
      try {
        return agentDetailView(await agents.create(definition, authorOf(context, message)));
      } catch (error) {
        if (!ForgeError.isInstance(error) || error.name !== 'DuplicateRecordError') throw error;
        throw new ApiError(409, 'AgentExists', 'An agent with this slug already exists; nothing was saved.', 'Save the definition as its next version with POST /api/v1/agents/{slug}/versions, or pick another slug.');
      }
    },
  },
  {
    method: 'get',
    path: '/agents/:agent',
    summary: 'An agent with its definition: `slug` (its active version) or `slug@version`.',
    access: 'signed-in',
    response: agentDetailSchema,
    handle: async (context) => agentDetailView(await (await agentServiceOf(context.runtime)).show(context.params['agent']!)),
  },
  {
    method: 'get',
    path: '/agents/:agent/export',
    summary: 'The definition as YAML (application/yaml) for version control; credential-looking values redacted.',
    access: 'signed-in',
    response: z.string().describe('The definition as YAML, sent as application/yaml.'),
    async handle(context) {
      const text = await (await agentServiceOf(context.runtime)).exportYaml(context.params['agent']!);
      return new Response(text, { headers: { 'content-type': 'application/yaml; charset=utf-8' } });
    },
  },
  {
    method: 'get',
    path: '/agents/:slug/versions',
    summary: "An agent's immutable versions: changed fields, message, author.",
    access: 'signed-in',
    response: agentVersionsSchema,
    async handle(context) {
      const slug = slugOf(context);
      return { slug, versions: (await (await agentServiceOf(context.runtime)).versions(slug)).map(agentVersionView) };
    },
  },
  {
    method: 'get',
    path: '/agents/:slug/diff',
    summary: 'The fields that differ between two versions (?from=1&to=2).',
    access: 'signed-in',
    query: agentDiffQuerySchema,
    response: agentDiffSchema,
    async handle(context) {
      const slug = slugOf(context);
      const { from, to } = agentDiffQuerySchema.parse(context.query);
      return { slug, from, to, changes: (await (await agentServiceOf(context.runtime)).diff(slug, from, to)).map(agentChangeView) };
    },
  },
  {
    method: 'post',
    path: '/agents/:slug/versions',
    summary: 'Save the whole changed definition ({definition, message} or {yaml, message}) as the next version; it becomes the active one (admin).',
    access: 'agents:write',
    body: editAgentRequestSchema,
    response: agentEditedSchema,
    status: 201,
    async handle(context) {
      adminsOnly(context);
      const { definition, message } = definitionRequestOf(context.body, (body) => {
        const parsed = editJsonEnvelopeSchema.parse(body);
        return { definition: parsed.definition, message: parsed.message };
      });
      const edited = await (await agentServiceOf(context.runtime)).edit(slugOf(context), definition, authorOf(context, message));
      return { ...agentDetailView(edited), changes: edited.changes.map(agentChangeView) };
    },
  },
  {
    method: 'post',
    path: '/agents/:slug/rollback',
    summary: 'Make another version the active one: runs started from now on use it (admin).',
    access: 'agents:write',
    body: agentRollbackRequestSchema,
    response: agentDetailSchema,
    async handle(context) {
      adminsOnly(context);
      const { version } = agentRollbackRequestSchema.parse(context.body);
      return agentDetailView(await (await agentServiceOf(context.runtime)).rollback(slugOf(context), version));
    },
  },
  {
    method: 'post',
    path: '/agents/:slug/remove',
    summary: 'Remove an agent and its versions; runs keep the version they ran (admin).',
    access: 'agents:write',
    response: agentRemovedSchema,
    async handle(context) {
      adminsOnly(context);
      const slug = slugOf(context);
      await (await agentServiceOf(context.runtime)).remove(slug);
      return { removed: slug };
    },
  },
  {
    method: 'post',
    path: '/agents/:agent/runs',
    summary: 'Run an agent (`slug` or `slug@version`) on a task with its parameters; the run is pinned to the version and its events stream from events_url.',
    access: 'runs:write',
    body: agentRunRequestSchema,
    response: startedRunSchema,
    status: 202,
    async handle(context) {
      refuseWhileShuttingDown(context);
      const body = agentRunRequestSchema.parse(context.body);
      // Like POST /runs: the run waits for its approvals, which its owner answers through the API.
      return startedRunAnswer(
        await context.runtime.runs.submit(
          {
            kind: 'agent_definition',
            agent: context.params['agent']!,
            task: body.task,
            ...(body.params === undefined ? {} : { params: body.params }),
            ...(body.model === undefined ? {} : { model: body.model }),
          },
          runPrincipal(context),
        ),
      );
    },
  },
];
