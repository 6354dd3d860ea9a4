import { z } from 'zod';

/** The tool catalog's bodies (GET /tools, POST /tools/{tool}/call). */
export const toolSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    risk: z.enum(['low', 'medium', 'high', 'critical']),
    side_effect: z.enum(['read', 'write']),
    scope: z.enum(['installation', 'account']).describe("installation: offered to every run; account: a tool of the caller's own toolbox (synthesized by its runs), offered to its runs alone until an admin promotes it."),
  })
  .strict();

export const toolListSchema = z.object({ tools: z.array(toolSchema) }).strict();
export const toolCallRequestSchema = z.object({ input: z.unknown().default({}) }).strict();
export const toolCallSchema = z
  .object({
    run_id: z.string(),
    status: z.string(),
    output: z.string().nullable().describe('The tool\'s output as the model would see it.'),
    error: z.object({ name: z.string(), message: z.string(), hint: z.string().optional() }).strict().nullable(),
  })
  .strict();

