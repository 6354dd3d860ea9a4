import { z } from 'zod';
import { agentDetailSchema, agentDiffSchema, agentEditedSchema, agentListSchema, agentRemovedSchema, agentVersionsSchema } from '../../agents/agent-views.js';

/** `forge agent … --json`: the shapes the API answers with, and the CLI's own for import. */
export const agentCreateOutputSchema = agentDetailSchema;
export const agentEditOutputSchema = agentEditedSchema;
export const agentImportOutputSchema = agentDetailSchema.extend({ created: z.boolean().describe('Whether the file made a new agent (else the next version of one).') });
export const agentRemoveOutputSchema = agentRemovedSchema;
export { agentDetailSchema as agentShowOutputSchema, agentDiffSchema as agentDiffOutputSchema, agentListSchema as agentListOutputSchema, agentVersionsSchema as agentVersionsOutputSchema };
