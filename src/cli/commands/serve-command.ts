import type { Command } from 'commander';
import { EXIT, parsePort } from '../command-errors.js';
import { describeFiring } from '../schedule-line.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

interface ServeOptions {
  host?: string;
  port?: number;
  allowedHost?: string[];
  expose?: string[];
  skill?: string[];
  auth?: string;
  openSignup?: boolean;
  json?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve the HTTP API (runs, their live events, approvals) on 127.0.0.1:7700.')
    .option('--host <address>', 'address to listen on; anything but loopback needs --auth password or accounts (default FORGE_SERVE_HOST, else 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 picks a free one, shown once listening (default FORGE_SERVE_PORT, else 7700)', parsePort('--port'))
    .option('--allowed-host <host>', 'another Host value to answer to (behind a proxy); repeatable', collect)
    .option('--expose <tools...>', 'also serve Forge over MCP at /mcp, offering these registry tools (by exact name)')
    .option('--skill <names...>', 'also serve Forge over MCP at /mcp, publishing these stored skills as skill_{name}')
    .option('--auth <mode>', 'none (loopback only), password (FORGE_ADMIN_PASSWORD) or accounts; default accounts once one exists, else password when set, else none (FORGE_AUTH)')
    .option('--open-signup', 'with accounts: let anyone make an account (FORGE_OPEN_SIGNUP=1)')
    .option('--json', 'print the endpoint as JSON once listening')
    .addHelpText(
      'after',
      `
The API is under /api/v1 (its OpenAPI document at /api/v1/openapi.json), with /health and /ready.
Runs started through it wait for their approvals; answer them with POST /api/v1/approvals/<run>/<call>/approve.
A run's events stream as Server-Sent Events at /api/v1/runs/<id>/events; reconnect with Last-Event-ID.

Auth modes (--auth):
  none      loopback only: anyone on this machine may call it.
  password  every request sends "Authorization: Bearer <FORGE_ADMIN_PASSWORD>" (at least 16 characters).
  accounts  people sign in (POST /api/v1/auth/login; forge users add makes accounts) or send a service key
            as X-API-Key (forge api-keys create); each sees and acts on only their own runs,
            conversations and approvals. Records made before accounts belong to the first admin.
Anything but none may listen beyond loopback. SIGTERM or Ctrl-C shuts down gracefully: new work is refused, event streams end
with a server-shutdown event, and runs in flight keep their checkpoints (resume them after a restart).

Examples:
  $ forge serve
  $ curl -s localhost:7700/api/v1/runs -H 'content-type: application/json' -d '{"task": "What is the latest Node.js release?"}'`,
    )
    .action(async (options: ServeOptions) => {
      const json = options.json === true;
      await withRuntime(
        json,
        async (runtime) => {
          const { serveApi } = await import('../../server/api/index.js');
          const { chooseAuthMode } = await import('../../server/api/index.js');
          const token = runtime.config.env['FORGE_ADMIN_PASSWORD']?.trim() || undefined;
          const auth = chooseAuthMode({ requested: options.auth ?? runtime.config.env['FORGE_AUTH'], hasUsers: await runtime.accounts.hasUsers(), password: token });
          const openSignup = options.openSignup === true || runtime.config.env['FORGE_OPEN_SIGNUP'] === '1';
          const mcp = options.expose === undefined && options.skill === undefined ? undefined : { exposedTools: options.expose ?? [], publishedSkills: options.skill ?? [] };
          const server = await serveApi(runtime, {
            host: options.host ?? runtime.config.serve.host,
            port: options.port ?? runtime.config.serve.port,
            auth,
            openSignup,
            ...(token === undefined ? {} : { token }),
            ...(options.allowedHost === undefined ? {} : { allowedHosts: options.allowedHost }),
            ...(mcp === undefined ? {} : { mcp }),
          });
          const { startScheduler } = await import('../../compose/index.js');
          const scheduler = startScheduler(runtime, { report: (firing) => printError(`${describeFiring(firing)}\n`), onError: (error) => printError(`forge serve: schedules: ${error instanceof Error ? error.message : String(error)}\n`) });
          // Listening for the signals before saying where it listens, so a client that stops it on that line is heard.
          const stopped = new Promise<void>((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
          });
          const url = `${server.listener.origin}/api/v1`;
          const mcpUrl = mcp === undefined ? null : `${server.listener.origin}/mcp`;
          const tokenRequired = auth === 'password';
          const access = { none: '', password: ' · clients must send FORGE_ADMIN_PASSWORD as a bearer token', accounts: ` · accounts: sign in at ${url}/auth/login or send X-API-Key${openSignup ? ' (open sign-up)' : ''}` }[auth];
          // A browser cannot send the admin password, so the web UI is offered only where it can sign in.
          const web = auth === 'password' ? '' : ` · web UI at ${server.listener.origin}/`;
          if (json) printJson({ url, openapi: `${url}/openapi.json`, mcp_url: mcpUrl, allowed_hosts: server.listener.allowedHosts, token_required: tokenRequired, auth, open_signup: openSignup && auth === 'accounts' });
          else printOut(`Forge API listening on ${url}${web}${mcpUrl === null ? '' : ` · MCP at ${mcpUrl}`}${access} (Ctrl-C to stop)\n`);
          await stopped;
          await scheduler.stop();
          await server.close();
          return EXIT.ok;
        },
        { mcp: { stdio: 'refuse' }, server: true },
      );
    });
}
