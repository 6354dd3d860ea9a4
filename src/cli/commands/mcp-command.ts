import type { Command } from 'commander';
import { ConfigurationError, type McpTransportKind } from '../../core/index.js';
import type { McpRegisteredTool, McpServerStatus } from '../../tools/mcp/index.js';
import { readableOutput } from '../../security/index.js';
import { EXIT, parsePort, parsePositiveInteger } from '../command-errors.js';
import { formatQuantity } from '../event-line/index.js';
import { printJson, printOut } from '../terminal-output.js';
// The constants alone, not the server's index: that would load the MCP SDK for every command.
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../../server/mcp/session-limits.js';
import { withRuntime } from '../with-runtime.js';
import type { ForgeRuntime } from '../../compose/index.js';
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
    trust_annotations: status.trustAnnotations,
  };
}

function statusLine(status: McpServerStatus): string {
  const error = status.lastError === null ? '' : `  last error: ${status.lastError.message}`;
  const hint = status.lastError?.hint === undefined ? '' : `  hint: ${status.lastError.hint}\n`;
  return `${status.name}  ${status.state}  ${status.transport}  ${status.url}  ${formatQuantity(status.tools.length, 'tool')}${error}\n${hint}`;
}

function toolJson(tool: McpRegisteredTool) {
  return { name: tool.name, remote_name: tool.remoteName, description: readableOutput(tool.description), input_schema: tool.inputSchema };
}

function collectHeader(value: string, previous: Record<string, string>): Record<string, string> {
  const separator = value.indexOf('=');
  if (separator <= 0) throw new ConfigurationError('--header', `"${value.split('=')[0]}…" is not NAME=VALUE.`, 'Write each header as --header "Authorization=Bearer <token>".');
  return { ...previous, [value.slice(0, separator).trim()]: value.slice(separator + 1) };
}

function collectValue(value: string, previous: string[]): string[] {
  return [...previous, value];
}

interface ServeOptions {
  port: number;
  host: string;
  allowedHost: string[];
  token?: string;
  maxSessions?: number;
  sessionIdleTimeout?: number;
  expose?: string[];
  skill?: string[];
  json?: boolean;
}

/** What `forge mcp serve` offers, one line each for tools and skills, or how to offer something. */
function servedLines(tools: readonly string[], skills: readonly string[]): string {
  if (tools.length === 0 && skills.length === 0) return '  serving nothing yet: name tools with --expose <tool…> and skills with --skill <name…>\n';
  const tooled = tools.length === 0 ? '' : `  tools:  ${tools.join(', ')}\n`;
  const skilled = skills.length === 0 ? '' : `  skills: ${skills.map((name) => `${name} (as skill_${name})`).join(', ')}\n`;
  return tooled + skilled;
}

async function refuseUnknownSkills(runtime: ForgeRuntime, names: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const name of names) if ((await runtime.store.skills.get(name)) === undefined) missing.push(name);
  if (missing.length === 0) return;
  const stored = (await runtime.store.skills.list()).map((skill) => skill.name);
  throw new ConfigurationError(
    '--skill',
    `no stored skill named ${missing.map((name) => `"${name}"`).join(', ')}. Stored skills: ${stored.join(', ') || '(none)'}.`,
    'Name skills exactly as `forge skill list` shows them; save one from a run with `forge skill save <run-id> --name <name>`.',
  );
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
    .option('--trust-annotations', "let skill replays believe the server's readOnlyHint annotations (default: every tool is treated as one that may write); a tool's risk stays at least medium either way")
    .option('--allow-stdio', 'allow a stdio server, which runs a local program; remembered for this server, so later commands start it too (local CLI only; a server never allows it)')
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExamples:\n  $ forge mcp add docs https://mcp.example.org/mcp --header "Authorization=Bearer $TOKEN"\n  $ FORGE_ALLOW_HOSTS=127.0.0.1:3001 forge mcp add local http://127.0.0.1:3001/mcp`)
    .action(async (name: string, url: string, options: { header: Record<string, string>; transport: McpTransportKind; tool?: string[]; trustAnnotations?: boolean; allowStdio?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const target = options.transport === 'stdio' ? JSON.stringify(url.split(/\s+/).filter((part) => part !== '')) : url;
        const status = await runtime.mcp.add({ name, url: target, transport: options.transport, headers: options.header, enabledTools: options.tool ?? null, trustAnnotations: options.trustAnnotations === true, allowStdio: options.allowStdio === true });
        print(json, { server: statusJson(status) }, `Added ${status.name}: ${formatQuantity(status.tools.length, 'tool')} registered.\n${status.tools.map((tool) => `  ${tool}\n`).join('')}`);
        return EXIT.ok;
      });
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
        const text = status.state === 'connected' ? tools.map((tool) => `${tool.name}  ${readableOutput(tool.description).split('\n')[0]}\n`).join('') : statusLine(status);
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
    .option('--port <port>', 'port to listen on (0 picks a free one, shown once listening)', parsePort('--port'), 8765)
    .option('--host <host>', 'address to listen on; anything but loopback needs an access token', '127.0.0.1')
    .option('--allowed-host <host>', 'another Host value to answer to, e.g. a name in front of a proxy: name (any port) or name:port (repeatable)', collectValue, [] as string[])
    .option('--token <token>', 'require "Authorization: Bearer <token>" of every client (prefer FORGE_MCP_TOKEN: a command line is visible to other users)')
    .option('--max-sessions <n>', `sessions kept at once; past it a new session gets HTTP 503 (default ${DEFAULT_MAX_SESSIONS})`, parsePositiveInteger('--max-sessions'))
    .option('--session-idle-timeout <seconds>', `end a session after this long without requests (default ${DEFAULT_SESSION_IDLE_MS / 1000})`, parsePositiveInteger('--session-idle-timeout'))
    .option('--expose <tools...>', 'registry tools to offer (by exact name); none by default')
    .option('--skill <names...>', 'stored skills to publish, each as the tool skill_{name}; none by default')
    .option('--json', 'print the endpoint as JSON once listening')
    .addHelpText(
      'after',
      `
Every request must name this server in its Host header (the bound address and port, localhost for
loopback, or an --allowed-host), which defeats DNS rebinding; a browser's Origin must be one of them.
With a token (FORGE_MCP_TOKEN or --token), every request must send it as a bearer token. The token
is never printed.`,
    )
    .action(async (options: ServeOptions) => {
      const json = options.json === true;
      // A server never starts local programs: stdio MCP is refused here whatever the environment says.
      await withRuntime(json, async (runtime) => {
        // The MCP server loads only for `serve`, so other commands start fast.
        const [{ createRuntimeMcpEndpoint }, { listenHttp }] = await Promise.all([import('../../server/mcp/index.js'), import('../../server/http/index.js')]);
        const token = options.token ?? runtime.config.mcpToken;
        const exposed = options.expose ?? [];
        const skills = options.skill ?? [];
        // A name nothing has is refused before anything listens, so a client never meets a server missing what was asked for.
        runtime.registry.snapshot(exposed);
        await refuseUnknownSkills(runtime, skills);
        const endpoint = createRuntimeMcpEndpoint(runtime, {
          exposedTools: exposed,
          publishedSkills: skills,
          version: FORGE_VERSION,
          sessions: {
            ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
            ...(options.sessionIdleTimeout === undefined ? {} : { sessionIdleMs: options.sessionIdleTimeout * 1000 }),
          },
        });
        const listener = await listenHttp({
          host: options.host,
          port: options.port,
          allowedHosts: options.allowedHost,
          ...(token === undefined ? {} : { token }),
          handle: (request, response) => endpoint.handle(request, response),
        }).catch(async (error: unknown) => {
          await endpoint.close();
          throw error;
        });
        // Listening for the signals before saying where it listens, so a client that stops it on that line is heard.
        const stopped = new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        const url = `${listener.origin}/mcp`;
        const access = token === undefined ? '' : ' · clients must send the access token as a bearer token';
        print(
          json,
          { url, tools: exposed, skills, allowed_hosts: listener.allowedHosts, token_required: token !== undefined },
          `Forge MCP server listening on ${url}${access} (Ctrl-C to stop)\n${servedLines(exposed, skills)}`,
        );
        await stopped;
        await endpoint.close();
        await listener.close();
        return EXIT.ok;
      }, { mcp: { stdio: 'refuse' } });
    });
}
