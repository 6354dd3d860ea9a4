import type { Command } from 'commander';
import { ConfigurationError, type McpTransportKind } from '../../core/index.js';
import type { McpRegisteredTool, McpServerStatus } from '../../tools/mcp/index.js';
import { EXIT, parsePositiveInteger } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';
import { FORGE_VERSION } from '../../version.js';

const transports: readonly McpTransportKind[] = ['streamable-http', 'sse', 'stdio'];

function print(json: boolean, value: unknown, text: string): void {
  if (json) printJson(value);
  else printOut(text);
}

/** A status in the snake_case shape every `--json` output uses. */
function statusJson(status: McpServerStatus) {
  return {
    name: status.name,
    transport: status.transport,
    url: status.url,
    headers: status.headers,
    state: status.state,
    last_error: status.lastError,
    failed_attempts: status.failedAttempts,
    next_attempt_at: status.nextAttemptAt,
    tools: status.tools,
    skipped_tools: status.skippedTools,
    enabled_tools: status.enabledTools,
  };
}

function statusLine(status: McpServerStatus): string {
  const error = status.lastError === null ? '' : `  last error: ${status.lastError.message}`;
  return `${status.name}  ${status.state}  ${status.transport}  ${status.url}  ${status.tools.length} tools${error}\n`;
}

function toolJson(tool: McpRegisteredTool) {
  return { name: tool.name, remote_name: tool.remoteName, description: tool.description, input_schema: tool.inputSchema };
}

function collectHeader(value: string, previous: Record<string, string>): Record<string, string> {
  const separator = value.indexOf('=');
  if (separator <= 0) throw new ConfigurationError('--header', `"${value.split('=')[0]}…" is not NAME=VALUE.`, 'Write each header as --header "Authorization=Bearer <token>".');
  return { ...previous, [value.slice(0, separator).trim()]: value.slice(separator + 1) };
}

function parseTransport(value: string): McpTransportKind {
  if (!transports.includes(value as McpTransportKind)) throw new ConfigurationError('--transport', `must be one of ${transports.join(', ')}, got "${value}".`);
  return value as McpTransportKind;
}

/** `forge mcp …`: remote MCP servers as native tools, and Forge itself as an MCP server. */
export function registerMcpCommand(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Connect remote MCP servers (their tools become native tools) and serve Forge over MCP.')
    .addHelpText(
      'after',
      `
Remote tools are named mcp__{server}__{tool}. Servers are stored (header values encrypted) and
reconnected whenever Forge starts. A server on a private or loopback address must be listed in
FORGE_ALLOW_HOSTS, like any other self-hosted service.`,
    );

  mcp
    .command('add')
    .description('Connect a server, register its tools and remember it.')
    .argument('<name>', 'a short name: lower-case letters, digits and hyphens (the {server} in mcp__{server}__{tool})')
    .argument('<url>', 'the endpoint URL (for --transport stdio: the command line to run)')
    .option('--header <name=value>', 'a header sent with every request, e.g. "Authorization=Bearer <token>" (repeatable; stored encrypted)', collectHeader, {})
    .option('--transport <kind>', 'streamable-http (default), sse (the older HTTP+SSE transport) or stdio', parseTransport, 'streamable-http' as McpTransportKind)
    .option('--tool <names...>', 'register only these remote tools (default: all)')
    .option('--allow-stdio', 'allow a stdio server, which runs a local program (local CLI only; a server never allows it)')
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExamples:\n  $ forge mcp add docs https://mcp.example.org/mcp --header "Authorization=Bearer $TOKEN"\n  $ FORGE_ALLOW_HOSTS=127.0.0.1:3001 forge mcp add local http://127.0.0.1:3001/mcp`)
    .action(async (name: string, url: string, options: { header: Record<string, string>; transport: McpTransportKind; tool?: string[]; allowStdio?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const target = options.transport === 'stdio' ? JSON.stringify(url.split(/\s+/).filter((part) => part !== '')) : url;
        const status = await runtime.mcp.add({ name, url: target, transport: options.transport, headers: options.header, enabledTools: options.tool ?? null });
        print(json, { server: statusJson(status) }, `Added ${status.name}: ${status.tools.length} tools registered.\n${status.tools.map((tool) => `  ${tool}\n`).join('')}`);
        return EXIT.ok;
      }, options.allowStdio === true ? { mcp: { stdio: 'allow' } } : {});
    });

  mcp
    .command('list')
    .description('List configured servers with their connection state, last error and tool count.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const statuses = runtime.mcp.statuses();
        print(json, { servers: statuses.map(statusJson) }, statuses.length === 0 ? 'No MCP servers. Add one with `forge mcp add <name> <url>`.\n' : statuses.map(statusLine).join(''));
        return EXIT.ok;
      });
    });

  mcp
    .command('refresh')
    .description('Reconnect now if disconnected, and list the server\'s tools again (new ones register, gone ones unregister).')
    .argument('<name>', 'server name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const status = await runtime.mcp.refresh(name);
        print(json, { server: statusJson(status) }, statusLine(status));
        return status.state === 'connected' ? EXIT.ok : EXIT.failed;
      });
    });

  mcp
    .command('tools')
    .description('List the server\'s registered tools with their input schemas.')
    .argument('<name>', 'server name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const status = runtime.mcp.status(name);
        const tools = runtime.mcp.tools(name);
        const text = status.state === 'connected' ? tools.map((tool) => `${tool.name}  ${tool.description.split('\n')[0]}\n`).join('') : statusLine(status);
        print(json, { server: name, state: status.state, tools: tools.map(toolJson) }, text);
        return status.state === 'connected' ? EXIT.ok : EXIT.failed;
      });
    });

  mcp
    .command('remove')
    .description('Disconnect a server, unregister its tools and forget it (its stored headers too).')
    .argument('<name>', 'server name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const removed = await runtime.mcp.remove(name);
        print(json, { server: name, removed }, removed ? `Removed ${name}.\n` : `No MCP server named ${name}.\n`);
        return removed ? EXIT.ok : EXIT.failed;
      });
    });

  mcp
    .command('serve')
    .description('Serve Forge as an MCP server over Streamable HTTP: the registry tools you expose and the skills you publish.')
    .option('--port <port>', 'port to listen on', parsePositiveInteger('--port'), 8765)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--expose <tools...>', 'registry tools to offer (by exact name); none by default')
    .option('--skill <names...>', 'stored skills to publish, each as the tool skill_{name}; none by default')
    .option('--json', 'print the endpoint as JSON once listening')
    .action(async (options: { port: number; host: string; expose?: string[]; skill?: string[]; json?: boolean }) => {
      const json = options.json === true;
      // A server never starts local programs: stdio MCP is refused here whatever the environment says.
      await withRuntime(json, async (runtime) => {
        const loopback = ['127.0.0.1', 'localhost', '::1'].includes(options.host);
        // The MCP server loads only for `serve`, so other commands start fast.
        const { createRuntimeMcpEndpoint, listenHttp } = await import('../../server/mcp/index.js');
        const endpoint = createRuntimeMcpEndpoint(runtime, {
          exposedTools: options.expose ?? [],
          publishedSkills: options.skill ?? [],
          version: FORGE_VERSION,
          ...(loopback ? { allowedHosts: [`127.0.0.1:${options.port}`, `localhost:${options.port}`, `[::1]:${options.port}`] } : {}),
        });
        const listener = await listenHttp({ host: options.host, port: options.port, handle: (request, response) => endpoint.handle(request, response) });
        const url = `${listener.origin}/mcp`;
        print(json, { url, tools: options.expose ?? [], skills: options.skill ?? [] }, `Forge MCP server listening on ${url} (Ctrl-C to stop)\n`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await endpoint.close();
        await listener.close();
        return EXIT.ok;
      }, { mcp: { stdio: 'refuse' } });
    });
}
