import { z } from 'zod';
import { anyJsonSchema, nestedErrorSchema } from './common-schemas.js';

const serverStatusSchema = z.object({
  name: z.string(),
  transport: z.enum(['streamable-http', 'sse', 'stdio']),
  url: z.string(),
  headers: z.array(z.string()).describe('header names; values are never printed'),
  state: z.enum(['connecting', 'connected', 'reconnecting', 'failed']),
  last_error: nestedErrorSchema.nullable(),
  failed_attempts: z.number().int().nonnegative(),
  next_attempt_at: z.string().nullable(),
  tools: z.array(z.string()),
  skipped_tools: z.array(z.object({ name: z.string(), reason: z.string() })),
  enabled_tools: z.array(z.string()).nullable(),
  trust_annotations: z.boolean(),
});

export const mcpServerOutputSchema = z.object({ server: serverStatusSchema });
export const mcpListOutputSchema = z.object({ servers: z.array(serverStatusSchema) });
export const mcpToolsOutputSchema = z.object({
  server: z.string(),
  state: serverStatusSchema.shape.state,
  tools: z.array(z.object({ name: z.string(), remote_name: z.string(), description: z.string(), input_schema: anyJsonSchema })),
});
export const mcpRemoveOutputSchema = z.object({ server: z.string(), removed: z.boolean() });
export const mcpServeOutputSchema = z.object({ url: z.string(), tools: z.array(z.string()), skills: z.array(z.string()), allowed_hosts: z.array(z.string()), token_required: z.boolean() });
