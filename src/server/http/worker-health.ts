import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A worker's health, as GET /health answers it. */
export interface WorkerHealth {
  readonly status: 'ok' | 'draining';
  readonly concurrency: number;
  readonly active: number;
  readonly done: number;
  readonly failed: number;
}

/**
 * `forge worker --health-port`: GET /health on 127.0.0.1 answers the worker's health as JSON (200 while
 * it takes jobs, 503 while it drains), for a container's health check. Loopback only: it says nothing
 * anyone else needs, and nothing else is served.
 */
export async function serveWorkerHealth(options: { readonly port: number; readonly status: () => WorkerHealth }): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/health') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"only GET /health is served here"}');
      return;
    }
    const health = options.status();
    response.writeHead(health.status === 'ok' ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(health));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/health`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
