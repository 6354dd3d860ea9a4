import { setMaxListeners } from 'node:events';
import { getRequestListener } from '@hono/node-server';
import type { ForgeRuntime } from '../../runtime/index.js';
import { FORGE_VERSION } from '../../version.js';
import { listenHttp, type HttpListener } from '../http/index.js';
import { createApi } from './create-api.js';

export interface ApiServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 7700; 0 picks a free port. */
  readonly port?: number;
  /** Required beyond loopback: clients send it as `Authorization: Bearer <token>` (FORGE_ADMIN_PASSWORD). */
  readonly token?: string;
  readonly allowedHosts?: readonly string[];
  /** Forge's MCP endpoint at `/mcp` (behind the same access rules): the registry tools and skills it offers; none when absent. */
  readonly mcp?: { readonly exposedTools: readonly string[]; readonly publishedSkills: readonly string[] };
}

export interface ApiServer {
  readonly listener: HttpListener;
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
  const state = {
    get shuttingDown() {
      return shutdown.signal.aborted;
    },
    shutdownSignal: shutdown.signal,
  };
  const app = createApi(runtime, state);
  const api = getRequestListener(app.fetch);
  // The MCP SDK loads only when the endpoint is asked for.
  const mcp =
    options.mcp === undefined
      ? undefined
      : (await import('../mcp/index.js')).createRuntimeMcpEndpoint(runtime, { exposedTools: options.mcp.exposedTools, publishedSkills: options.mcp.publishedSkills, version: FORGE_VERSION });
  const listener = await listenHttp({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_API_PORT,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    handle: async (request, response) => {
      const pathname = (request.url ?? '/').split('?')[0];
      if (mcp !== undefined && (pathname === '/mcp' || pathname?.startsWith('/mcp/') === true)) return mcp.handle(request, response);
      return api(request, response);
    },
  }).catch(async (error: unknown) => {
    await mcp?.close();
    throw error;
  });
  return {
    listener,
    async close() {
      shutdown.abort('the server is shutting down');
      // The streams' last events are written before connections close.
      await new Promise((resolve) => setImmediate(resolve));
      await mcp?.close();
      await listener.close();
    },
  };
}
