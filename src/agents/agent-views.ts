import { z } from 'zod';
import type { AgentRecord, AgentVersionRecord } from '../core/index.js';
import type { AgentDefinitionChange } from './agent-diff.js';

/** The JSON shapes of agents, shared by `forge agent … --json` and the API. */
export const agentSummarySchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    active_version: z.number().int().positive(),
    latest_version: z.number().int().positive(),
    user_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

export const agentVersionSchema = z
  .object({ slug: z.string(), version: z.number().int().positive(), changed_fields: z.array(z.string()), message: z.string(), author: z.string(), created_at: z.string() })
  .strict();

export const agentDetailSchema = z.object({ agent: agentSummarySchema, version: agentVersionSchema, definition: z.record(z.string(), z.unknown()) }).strict();
export const agentListSchema = z.object({ agents: z.array(agentSummarySchema) }).strict();
export const agentVersionsSchema = z.object({ slug: z.string(), active_version: z.number().int().positive().describe('The version runs without @version use.'), versions: z.array(agentVersionSchema) }).strict();
export const agentChangeSchema = z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }).strict();
export const agentEditedSchema = agentDetailSchema.extend({ changes: z.array(agentChangeSchema).describe('What this version changed against the one before.') });
export const agentRemovedSchema = z.object({ removed: z.string().describe('The slug of the agent removed.') }).strict();
export const agentDiffSchema = z.object({ slug: z.string(), from: z.number().int().positive(), to: z.number().int().positive(), changes: z.array(agentChangeSchema) }).strict();

export function agentSummaryView(agent: AgentRecord): z.infer<typeof agentSummarySchema> {
  return { slug: agent.slug, name: agent.name, active_version: agent.activeVersion, latest_version: agent.latestVersion, user_id: agent.userId, created_at: agent.createdAt, updated_at: agent.updatedAt };
}

export function agentVersionView(version: AgentVersionRecord): z.infer<typeof agentVersionSchema> {
  return { slug: version.slug, version: version.version, changed_fields: [...version.changedFields], message: version.message, author: version.author, created_at: version.createdAt };
}

/** `forge agent versions --json` and `GET /agents/{slug}/versions`: one presenter. */
export function agentVersionsView(agent: AgentRecord, versions: readonly AgentVersionRecord[]): z.infer<typeof agentVersionsSchema> {
  return { slug: agent.slug, active_version: agent.activeVersion, versions: versions.map(agentVersionView) };
}

export function agentDetailView(shown: { agent: AgentRecord; version: AgentVersionRecord; definition: object }): z.infer<typeof agentDetailSchema> {
  return { agent: agentSummaryView(shown.agent), version: agentVersionView(shown.version), definition: { ...shown.definition } };
}

export function agentChangeView(change: AgentDefinitionChange): z.infer<typeof agentChangeSchema> {
  return { path: change.path, ...(change.before === undefined ? {} : { before: change.before }), ...(change.after === undefined ? {} : { after: change.after }) };
}
