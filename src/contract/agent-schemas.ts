import { z } from 'zod';

/**
 * The bodies and answers of the agent routes that need none of the agents' code (no template engine, no
 * YAML reader), so the typed client can share them. The definition itself is described by
 * `agentDefinitionSchema` in the routes.
 */

export const agentMessageSchema = z.string().trim().min(1).max(500).describe('Why (kept with the version).');

export const agentYamlRequestSchema = z
  .object({
    yaml: z.string().min(1).describe('The definition as YAML, as GET /agents/{agent}/export and `forge agent export` write it.'),
    message: agentMessageSchema.optional(),
  })
  .strict();

export { agentEditedSchema, agentRemovedSchema } from '../agents/agent-views.js';
export const agentRollbackRequestSchema = z.object({ version: z.number().int().positive().describe('The version to make the active one.') }).strict();
export const agentDiffQuerySchema = z.object({ from: z.coerce.number().int().positive(), to: z.coerce.number().int().positive() }).strict();

export const agentRunRequestSchema = z
  .object({
    task: z.string().trim().min(1).max(20_000).describe('What the agent should do, in plain words.'),
    params: z
      .record(z.string().min(1).max(64), z.union([z.string().max(10_000), z.number(), z.boolean()]).transform(String))
      .optional()
      .describe("Parameter values, read as their parameters' types like `forge run --param k=v`; what they leave open is read from the task where it says it plainly."),
    model: z.string().min(1).optional().describe("A model slug, when the agent allows another model than its own; default the agent's, else the server's FORGE_MODEL."),
  })
  .strict();

export type AgentRunRequest = z.input<typeof agentRunRequestSchema>;
export type AgentYamlRequest = z.input<typeof agentYamlRequestSchema>;
