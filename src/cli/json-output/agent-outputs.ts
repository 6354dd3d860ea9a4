import { z } from 'zod';
import { agentChangeSchema, agentDetailSchema, agentDiffSchema, agentListSchema, agentVersionsSchema } from '../../agents/agent-views.js';

/** `forge agent … --json`: the shapes the API shares, and the CLI's own for edit, import and remove. */
export const agentCreateOutputSchema = agentDetailSchema;
export const agentEditOutputSchema = agentDetailSchema.extend({ changes: z.array(agentChangeSchema).describe('What this version changed against the one before.') });
export const agentImportOutputSchema = agentDetailSchema.extend({ created: z.boolean().describe('Whether the file made a new agent (else the next version of one).') });
export const agentRemoveOutputSchema = z.object({ removed: z.string() }).strict();
export { agentDetailSchema as agentShowOutputSchema, agentDiffSchema as agentDiffOutputSchema, agentListSchema as agentListOutputSchema, agentVersionsSchema as agentVersionsOutputSchema };
