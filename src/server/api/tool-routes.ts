import type { ApiRoute } from './api-route.js';
import { errorView, runPrincipal, toolViewer } from './owned-records.js';
import { toolCallRequestSchema, toolCallSchema, toolListSchema } from '../../contract/index.js';

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
    summary: "The tools the caller's runs can call: the installation's, and its own toolbox tools.",
    access: 'tools:read',
    response: toolListSchema,
    handle: async (context) => ({
      tools: (await context.runtime.tools.list(toolViewer(context))).tools.map((tool) => ({ name: tool.name, description: tool.description, risk: tool.risk, side_effect: tool.side_effect, scope: tool.scope })),
    }),
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
