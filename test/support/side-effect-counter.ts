import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Counts side effects by label: how many times each one landed. */
export class SideEffectCounter {
  private readonly counts = new Map<string, number>();

  hit(label: string): number {
    const count = (this.counts.get(label) ?? 0) + 1;
    this.counts.set(label, count);
    return count;
  }

  hits(label: string): number {
    return this.counts.get(label) ?? 0;
  }
}

/** A loopback HTTP server where tool calls land; every request is counted by its path, whatever its method. */
export interface CountingServer {
  /** `127.0.0.1:<port>`, for FORGE_ALLOW_HOSTS. */
  readonly allowHost: string;
  readonly counter: SideEffectCounter;
  /** `http://127.0.0.1:<port>/<label>`: requests to it count as `label`. */
  url(label: string): string;
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 (port 0) that counts each request under its path (without the leading
 * `/`) and answers `{ label, method, hit }` as JSON, so a caller can show it reached the server.
 */
export async function startCountingServer(): Promise<CountingServer> {
  const counter = new SideEffectCounter();
  const server = createServer((request, response) => {
    const label = new URL(request.url ?? '/', 'http://counting').pathname.slice(1);
    request.resume();
    request.on('end', () => {
      const hit = counter.hit(label);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ label, method: request.method, hit }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    allowHost: `127.0.0.1:${port}`,
    counter,
    url: (label) => `http://127.0.0.1:${port}/${label}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
