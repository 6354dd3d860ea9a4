import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running HTTP listener. */
export interface HttpListener {
  /** `http://host:port`, with the port the system picked when 0 was asked for. */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `handle` on `host:port` (port 0 picks a free one). Errors a handler throws become a 500 so
 * one bad request cannot take the process down.
 */
export async function listenHttp(options: { host: string; port: number; handle: (request: IncomingMessage, response: ServerResponse) => Promise<void> }): Promise<HttpListener> {
  const server = createServer((request, response) => {
    options.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: error instanceof Error ? error.message : 'Internal error' }, id: null }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    origin: `http://${host}:${port}`,
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
