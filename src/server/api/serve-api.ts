import { setMaxListeners } from 'node:events';
import { getRequestListener } from '@hono/node-server';
import type { ForgeRuntime } from '../../compose/index.js';
import { ConfigurationError } from '../../core/index.js';
import { secretKeySource } from '../../adapters/store/index.js';
import { FORGE_VERSION } from '../../version.js';
import { listenHttp, type HttpListener } from '../http/index.js';
import { ApiReference, defaultWebRoot, WebApp } from '../web/index.js';
import { accountAuthenticator, operatorAuthenticator } from './authenticator.js';
import type { AuthMode } from './api-route.js';
import { createApi } from './create-api.js';
import { EventStreamSlots } from './event-stream-slots.js';
import { mcpPrincipal } from './mcp-access.js';

export interface ApiServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 7700; 0 picks a free port. */
  readonly port?: number;
  /**
   * How requests are authenticated; default `password` when a token is given, else `none`.
   * - `none`: loopback only; whoever reaches the port is the operator.
   * - `password`: every request sends `Authorization: Bearer <token>` (FORGE_ADMIN_PASSWORD) and acts as the operator.
   * - `accounts`: people sign in (or send a service key); each sees and acts on only their own records.
   */
  readonly auth?: AuthMode;
  /** The admin password (`password` mode); required beyond loopback unless accounts authenticate. */
  readonly token?: string;
  /** With accounts: whether anyone may make an account (POST /api/v1/auth/signup). Default false. */
  readonly openSignup?: boolean;
  readonly allowedHosts?: readonly string[];
  /** Forge's MCP endpoint at `/mcp` (behind the same access rules): the registry tools and skills it offers; none when absent. */
  readonly mcp?: { readonly exposedTools: readonly string[]; readonly publishedSkills: readonly string[] };
  /** The clock the rate limits refill by; default the system's (tests move it instead of waiting). */
  readonly now?: () => number;
  /** The built web UI served at `/` (every path outside `/api`, health checks and `/mcp`); default `dist/web` of the package, `null` for none. */
  readonly webRoot?: string | null;
}

export interface ApiServer {
  readonly listener: HttpListener;
  /** The run event streams open now, counted per account and in all. */
  readonly eventStreams: EventStreamSlots;
  /**
   * Graceful shutdown: refuses new work (503, `/ready` says shutting_down), ends every event stream with
   * a `server-shutdown` event (clients reconnect with Last-Event-ID), then stops listening. Runs in flight
   * keep their committed checkpoints: the next start ends them interrupted, and they can be resumed.
   */
  close(): Promise<void>;
}

export const DEFAULT_API_PORT = 7700;

/** `forge serve`: the API on `host:port`, behind the listener's access rules (Host, Origin, token). */
export async function serveApi(runtime: ForgeRuntime, options: ApiServerOptions = {}): Promise<ApiServer> {
  const shutdown = new AbortController();
  // Every open event stream listens for the shutdown: as many listeners as streams is expected here.
  setMaxListeners(0, shutdown.signal);
  const auth: AuthMode = options.auth ?? (options.token === undefined ? 'none' : 'password');
  if (auth === 'password' && options.token === undefined) throw new ConfigurationError('FORGE_ADMIN_PASSWORD', 'is needed for --auth password: clients send it as a bearer token.', 'Set FORGE_ADMIN_PASSWORD (at least 16 characters), or use --auth accounts.');
  // Sealed keys that the configured secret key cannot open: refuse now, naming which, not at a run's first model call.
  await runtime.providerKeys.checkSecretKey(secretKeySource({ secretKey: runtime.config.secretKey, home: runtime.config.home }));
  if (auth === 'accounts' && !(await runtime.accounts.hasUsers())) throw new ConfigurationError('--auth', 'accounts needs an account to sign in with, and there is none.', 'Add one first: forge users add <email> --admin');
  const state = {
    get shuttingDown() {
      return shutdown.signal.aborted;
    },
    shutdownSignal: shutdown.signal,
    auth,
    openSignup: auth === 'accounts' && options.openSignup === true,
    eventStreams: new EventStreamSlots(runtime.config.api.eventStreams),
  };
  const authenticate = auth === 'accounts' ? accountAuthenticator(runtime.accounts, runtime.apiKeys) : operatorAuthenticator;
  const app = createApi(runtime, state, { authenticate, firstAdminId: () => runtime.accounts.firstAdminId(), limits: runtime.config.api, ...(options.now === undefined ? {} : { now: options.now }) });
  const api = getRequestListener(app.fetch);
  const webRoot = options.webRoot === undefined ? defaultWebRoot() : options.webRoot;
  const web = webRoot === null ? undefined : WebApp.open(webRoot);
  const reference = new ApiReference();
  // The MCP SDK loads only when the endpoint is asked for.
  const mcp =
    options.mcp === undefined
      ? undefined
      : (await import('../mcp/index.js')).createRuntimeMcpEndpoint(runtime, { exposedTools: options.mcp.exposedTools, publishedSkills: options.mcp.publishedSkills, version: FORGE_VERSION });
  const listener = await listenHttp({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_API_PORT,
    ...(auth === 'password' && options.token !== undefined ? { token: options.token } : {}),
    ...(auth === 'accounts' ? { authenticatedByHandler: true } : {}),
    allowedOrigins: runtime.config.api.corsOrigins,
    // Liveness probes send no credentials; /health says only "ok" and the version.
    probePaths: ['/health'],
    beyondLoopbackHint: 'Listen on 127.0.0.1 (the default), or authenticate: --auth password with FORGE_ADMIN_PASSWORD (at least 16 characters), or --auth accounts after forge users add <email> --admin.',
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    handle: async (request, response) => {
      const pathname = (request.url ?? '/').split('?')[0];
      if (mcp !== undefined && (pathname === '/mcp' || pathname?.startsWith('/mcp/') === true)) {
        if (auth !== 'accounts') return mcp.handle(request, response);
        const access = await mcpPrincipal(request, authenticate);
        if ('refusal' in access) {
          request.resume();
          response.writeHead(access.refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: access.refusal.message }, id: null }));
          return;
        }
        return mcp.handle(request, response, access.principal);
      }
      if (ApiReference.owns(pathname ?? '/')) return reference.serve(request, response, pathname ?? '/');
      if (webRoot !== null && WebApp.owns(pathname ?? '/')) {
        if (web === undefined) WebApp.notBuilt(request, response);
        else web.serve(request, response, pathname ?? '/');
        return;
      }
      return api(request, response);
    },
  }).catch(async (error: unknown) => {
    await mcp?.close();
    throw error;
  });
  return {
    listener,
    eventStreams: state.eventStreams,
    async close() {
      shutdown.abort('the server is shutting down');
      // The streams' last events are written before connections close.
      await new Promise((resolve) => setImmediate(resolve));
      await mcp?.close();
      await listener.close();
    },
  };
}
