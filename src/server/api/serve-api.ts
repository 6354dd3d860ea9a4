import { setMaxListeners } from 'node:events';
import { getRequestListener } from '@hono/node-server';
import type { ForgeRuntime } from '../../runtime/index.js';
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
  const listener = await listenHttp({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_API_PORT,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    handle: getRequestListener(app.fetch),
  });
  return {
    listener,
    async close() {
      shutdown.abort('the server is shutting down');
      // The streams' last events are written before connections close.
      await new Promise((resolve) => setImmediate(resolve));
      await listener.close();
    },
  };
}
