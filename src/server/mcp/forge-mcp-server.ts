import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ForgeError, OPERATOR, type Principal } from '../../core/index.js';
import { inputSchemaFromJsonSchema } from '../../tools/mcp/index.js';
import type { ExposedTool, ExposedToolSource } from './exposed-tool-source.js';

export interface ForgeMcpServerOptions {
  readonly sources: readonly ExposedToolSource[];
  readonly name: string;
  readonly version: string;
}

/**
 * Forge's MCP server protocol logic for one session: `tools/list` is every source's tools (the first
 * source to offer a name owns it), `tools/call` validates the arguments against the tool's published
 * JSON Schema and answers a mismatch with an `InvalidParams` protocol error that names each bad field,
 * then runs the owning source; a refusal it throws (a `ForgeError`) is answered with its name and hint
 * in the error's data. Transports are attached elsewhere (see `StreamableHttpEndpoint`).
 */
export function createForgeMcpServer(options: ForgeMcpServerOptions): Server {
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: { listChanged: false } } });
  const validators = new Map<string, { schema: string; validator: z.ZodType<Record<string, unknown>> }>();

  async function owners(caller: Principal): Promise<Map<string, { tool: ExposedTool; source: ExposedToolSource }>> {
    const byName = new Map<string, { tool: ExposedTool; source: ExposedToolSource }>();
    for (const source of options.sources) {
      for (const tool of await source.list(caller)) if (!byName.has(tool.name)) byName.set(tool.name, { tool, source });
    }
    return byName;
  }

  function validatorFor(tool: ExposedTool): z.ZodType<Record<string, unknown>> {
    const schema = JSON.stringify(tool.inputSchema);
    const cached = validators.get(tool.name);
    if (cached !== undefined && cached.schema === schema) return cached.validator;
    const validator = inputSchemaFromJsonSchema(tool.inputSchema);
    validators.set(tool.name, { schema, validator });
    return validator;
  }

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: [...(await owners(callerOf(extra.authInfo))).values()].map(({ tool }) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: 'object' } })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const caller = callerOf(extra.authInfo);
    const owner = (await owners(caller)).get(request.params.name);
    if (owner === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}".`);
    const parsed = validatorFor(owner.tool).safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.')}: ${issue.message}`);
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool "${owner.tool.name}": ${problems.join('; ')}`, { fields: parsed.error.issues.map((issue) => issue.path.map(String).join('.')) });
    }
    let result;
    try {
      result = await owner.source.call(owner.tool.name, parsed.data, extra.signal, caller);
    } catch (error) {
      // A refusal (the front door's, a skill input) reaches the client with its name and hint, as over the API and the CLI.
      if (!ForgeError.isInstance(error)) throw error;
      throw new McpError(ErrorCode.InternalError, error.message, error.toJSON());
    }
    return {
      content: [{ type: 'text', text: result.text }],
      ...(result.structured === undefined ? {} : { structuredContent: result.structured }),
      ...(result.isError ? { isError: true } : {}),
    };
  });

  return server;
}

/**
 * Who a request acts as: the principal the endpoint attached to it (see `StreamableHttpEndpoint.handle`),
 * or the operator where nobody was attached (a server without accounts).
 */
function callerOf(authInfo: { readonly extra?: Record<string, unknown> } | undefined): Principal {
  const principal = authInfo?.extra?.['principal'];
  return principal === undefined ? OPERATOR : (principal as Principal);
}
