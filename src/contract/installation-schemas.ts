import { z } from 'zod';

/** The bodies of the installation's toolbox and MCP connection routes. */
export const toolDetailSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    registered: z.boolean().describe('Whether runs can call it now.'),
    risk: z.enum(['low', 'medium', 'high', 'critical']).nullable(),
    side_effect: z.enum(['read', 'write']).nullable(),
    input_schema: z.unknown(),
    toolbox_status: z.string().nullable().describe('For a toolbox tool: its verification status.'),
  })
  .strict();

export const addToolRequestSchema = z
  .object({
    tool_source: z.string().min(1).max(200_000).describe('The tool module (TypeScript) as forge tools add takes it.'),
    test_source: z.string().min(1).max(200_000).describe('Its black-box test: it must pass against the tool in the sandbox and fail against every stub.'),
  })
  .strict();

export const promoteToolRequestSchema = z.object({}).strict();

export const promotedToolSchema = z
  .object({
    name: z.string(),
    status: z.enum(['draft', 'testing', 'failed', 'promoted']),
    scope: z.literal('installation').describe('Every run started from now on is offered it.'),
    owner: z.null(),
  })
  .strict();

export const mcpServerSchema = z
  .object({
    name: z.string(),
    transport: z.enum(['streamable-http', 'sse', 'stdio']),
    url: z.string().describe('Credentials in it masked.'),
    headers: z.array(z.string()).describe('Header names; values stay sealed.'),
    state: z.string(),
    last_error: z.object({ name: z.string(), message: z.string() }).strict().nullable(),
    tools: z.array(z.string()),
    trust_annotations: z.boolean(),
  })
  .strict();

export const toolboxEntrySchema = z
  .object({
    name: z.string(),
    description: z.string(),
    status: z.enum(['draft', 'testing', 'failed', 'promoted']),
    origin: z.enum(['synthesized', 'added']),
    source: z.string().describe('The exact module the gate judged.'),
    test: z.string().describe('Its black-box test.'),
    revisions: z.number().int().nonnegative(),
    uses: z.number().int().nonnegative(),
    capabilities: z.array(z.string()),
    input_schema: z.record(z.string(), z.unknown()),
    failures: z.array(z.string()).describe('What the last verification reported, one line per reason (the graveyard\'s epitaphs); empty once promoted.'),
    cost_usd: z.number().nullable(),
    owner: z.string().nullable().describe("The account whose toolbox holds it (its runs alone are offered it, until an admin promotes it); null: the installation's."),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

export const toolboxListSchema = z.object({ toolbox: z.array(toolboxEntrySchema) }).strict();

export const mcpServerListSchema = z.object({ mcp_servers: z.array(mcpServerSchema) }).strict();

export const addMcpServerRequestSchema = z
  .object({
    name: z.string().min(1).max(64),
    url: z.string().url().describe('An http(s) Streamable HTTP or SSE endpoint (servers never start stdio programs).'),
    transport: z.enum(['streamable-http', 'sse']).default('streamable-http'),
    headers: z.record(z.string(), z.string().max(4_000)).optional().describe('Sent with every request; stored sealed.'),
    enabled_tools: z.array(z.string()).optional(),
    trust_annotations: z.boolean().optional(),
  })
  .strict();
