import { z } from 'zod';
import type { ApiRoute } from './api-route.js';
import { errorView, runPrincipal } from './owned-records.js';

const toolSchema = z
  .object({ name: z.string(), description: z.string(), risk: z.enum(['low', 'medium', 'high', 'critical']), side_effect: z.enum(['read', 'write']) })
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

/**
 * The tool catalog (built-in, promoted toolbox and MCP tools; installation-wide) and direct calls,
 * each a `tool-call` run of the caller's, through the one dispatch: validation, policy, the SSRF guard,
 * the file jail, output caps. A tool that needs an approval is refused here (nobody answers a direct
 * call's approval).
 */
export const toolRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/tools',
    summary: 'The tools runs can call.',
    access: 'tools:read',
    response: toolListSchema,
    handle: async ({ runtime }) => ({ tools: (await runtime.tools.list()).tools.map((tool) => ({ name: tool.name, description: tool.description, risk: tool.risk, side_effect: tool.side_effect })) }),
  },
  {
    method: 'post',
    path: '/tools/:tool/call',
    summary: 'Call one tool directly with an input, as a recorded run of yours (no model).',
    access: 'tools:write',
    body: toolCallRequestSchema,
    response: toolCallSchema,
    async handle(context) {
      const body = toolCallRequestSchema.parse(context.body ?? {});
      const result = await (await context.runtime.runs.submit({ kind: 'tool_call', tool: context.params['tool']!, input: body.input }, runPrincipal(context))).result();
      return {
        run_id: result.run_id,
        status: result.status,
        output: result.answer,
        error: errorView(result.error),
      };
    },
  },
];
