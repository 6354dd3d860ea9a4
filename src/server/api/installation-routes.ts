import { z } from 'zod';
import { NotFoundError } from '../../core/index.js';
import type { McpServerStatus } from '../../tools/mcp/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { requireAdmin } from './admin-only.js';
import { toolViewer } from './owned-records.js';
import { addMcpServerRequestSchema, addToolRequestSchema, mcpServerListSchema, mcpServerSchema, promotedToolSchema, promoteToolRequestSchema, toolboxListSchema, toolDetailSchema } from '../../contract/index.js';

/**
 * The installation's toolbox and MCP connections: one set for every run on the server, so only an
 * admin (or the operator of a server without accounts) changes them or sees the connections; any
 * caller with `tools:read` sees the catalog (GET /tools) and a tool's description.
 */
const adminsOnly = (context: RouteContext): void => requireAdmin(context, "The toolbox and MCP connections are the installation's: only an admin changes them.");

function mcpView(status: McpServerStatus): z.infer<typeof mcpServerSchema> {
  return {
    name: status.name,
    transport: status.transport,
    url: status.url,
    headers: [...status.headers],
    state: status.state,
    last_error: status.lastError === null ? null : { name: status.lastError.name, message: status.lastError.message },
    tools: [...status.tools],
    trust_annotations: status.trustAnnotations,
  };
}

export const installationRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/toolbox',
    summary: 'Admins: every toolbox tool, synthesized or added, failed ones included, with its source, test and last verification.',
    access: 'tools:read',
    response: toolboxListSchema,
    async handle(context) {
      adminsOnly(context);
      const entries = await context.runtime.toolbox.list();
      return {
        toolbox: entries.map((entry) => ({
          name: entry.name,
          description: entry.description,
          status: entry.status,
          origin: entry.origin,
          source: entry.source,
          test: entry.test,
          revisions: entry.revisions,
          uses: entry.uses,
          capabilities: [...entry.capabilities],
          input_schema: entry.input_schema,
          failures: [...entry.failures],
          cost_usd: entry.cost_usd,
          owner: entry.owner,
          created_at: entry.created_at,
          updated_at: entry.updated_at,
        })),
      };
    },
  },
  {
    method: 'get',
    path: '/tools/:tool',
    summary: 'One tool: its description, risk, side effect and input schema.',
    access: 'tools:read',
    response: toolDetailSchema,
    async handle(context) {
      const tool = await context.runtime.tools.describe(context.params['tool']!, toolViewer(context));
      return {
        name: tool.name,
        description: tool.description,
        registered: tool.registered,
        risk: tool.risk ?? null,
        side_effect: tool.side_effect ?? null,
        input_schema: tool.input_schema,
        toolbox_status: tool.toolbox?.status ?? null,
      };
    },
  },
  {
    method: 'post',
    path: '/tools',
    summary: 'Admins: add a hand-written tool through the verification gate (its test must pass in the sandbox and fail against every stub).',
    access: 'tools:write',
    body: addToolRequestSchema,
    response: z.object({ name: z.string(), status: z.string() }).strict(),
    status: 201,
    async handle(context) {
      adminsOnly(context);
      const body = addToolRequestSchema.parse(context.body);
      const entry = await context.runtime.tools.add({ toolSource: body.tool_source, testSource: body.test_source });
      return { name: entry.name, status: entry.status };
    },
  },
  {
    method: 'post',
    path: '/tools/:tool/promote',
    summary: "Admins: move an account's verified toolbox tool into the installation's toolbox, so every run is offered it (read its description and source in GET /toolbox first).",
    access: 'tools:write',
    body: promoteToolRequestSchema,
    response: promotedToolSchema,
    async handle(context) {
      requireAdmin(context, "Promoting a tool offers it to every account's runs: only an admin does it.", "Ask an admin to review the tool and promote it; until then your runs use it.");
      promoteToolRequestSchema.parse(context.body ?? {});
      const entry = await context.runtime.tools.promote(context.params['tool']!);
      return { name: entry.name, status: entry.status, scope: 'installation' as const, owner: entry.owner };
    },
  },
  {
    method: 'get',
    path: '/mcp-servers',
    summary: 'Admins: the installation\'s MCP connections and their state.',
    access: 'mcp:read',
    response: mcpServerListSchema,
    handle: async (context) => {
      adminsOnly(context);
      return { mcp_servers: context.runtime.mcp.statuses().map(mcpView) };
    },
  },
  {
    method: 'post',
    path: '/mcp-servers',
    summary: 'Admins: connect a remote MCP server (Streamable HTTP or SSE, through the SSRF guard); its tools join the catalog.',
    access: 'mcp:write',
    body: addMcpServerRequestSchema,
    response: mcpServerSchema,
    status: 201,
    async handle(context) {
      adminsOnly(context);
      const body = addMcpServerRequestSchema.parse(context.body);
      const status = await context.runtime.mcp.add({
        name: body.name,
        url: body.url,
        transport: body.transport,
        ...(body.headers === undefined ? {} : { headers: body.headers }),
        ...(body.enabled_tools === undefined ? {} : { enabledTools: body.enabled_tools }),
        ...(body.trust_annotations === undefined ? {} : { trustAnnotations: body.trust_annotations }),
      });
      return mcpView(status);
    },
  },
  {
    method: 'post',
    path: '/mcp-servers/:server/refresh',
    summary: 'Admins: bring an MCP server up to date now: list its tools again, or try to connect at once.',
    access: 'mcp:write',
    response: mcpServerSchema,
    async handle(context) {
      adminsOnly(context);
      const name = context.params['server']!;
      if (!context.runtime.mcp.statuses().some((status) => status.name === name)) throw new NotFoundError('MCP server', name, 'List them with GET /api/v1/mcp-servers.');
      return mcpView(await context.runtime.mcp.refresh(name));
    },
  },
  {
    method: 'post',
    path: '/mcp-servers/:server/remove',
    summary: 'Admins: disconnect an MCP server and forget it; its tools leave the catalog.',
    access: 'mcp:write',
    response: mcpServerListSchema,
    async handle(context) {
      adminsOnly(context);
      const name = context.params['server']!;
      if (!(await context.runtime.mcp.remove(name))) throw new NotFoundError('MCP server', name, 'List them with GET /api/v1/mcp-servers.');
      return { mcp_servers: context.runtime.mcp.statuses().map(mcpView) };
    },
  },
];
