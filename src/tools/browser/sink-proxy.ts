import { createServer } from 'node:net';

/** A proxy that drops every connection it is given. */
export interface SinkProxy {
  /** `http://127.0.0.1:PORT`, for the browser's --proxy-server. */
  readonly url: string;
  /** Where the latest connections asked to go (`host:port` of their CONNECT or request line), oldest first. */
  readonly destinations: () => readonly string[];
  close(): Promise<void>;
}

const keptDestinations = 50;
/** How long a connection is kept open for its first line. */
const firstLineMs = 1_000;

/**
 * Starts the browser's proxy: a listener on 127.0.0.1 that notes where each connection asked to go and
 * destroys it, forwarding nothing. Every page request is fulfilled through the guarded fetch before it
 * reaches the network, but a few things never pass request interception (a WebRTC TURN relay over TCP,
 * Chromium's own update checks); with this as the proxy for every destination, loopback included, they
 * reach nothing. The listener does not keep the process alive.
 */
export async function startSinkProxy(): Promise<SinkProxy> {
  const destinations: string[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.setTimeout(firstLineMs, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      destinations.push(destinationOf(chunk.toString('latin1')));
      destinations.splice(0, Math.max(0, destinations.length - keptDestinations));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the sink proxy has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    destinations: () => [...destinations],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `CONNECT host:port HTTP/1.1` or `GET http://host:port/… HTTP/1.1` → `host:port`; anything else as its first 100 characters. */
function destinationOf(head: string): string {
  const [method = '', target = ''] = head.split('\r\n', 1)[0]?.split(' ') ?? [];
  if (method === 'CONNECT') return target;
  try {
    return new URL(target).host;
  } catch {
    return head.slice(0, 100);
  }
}
