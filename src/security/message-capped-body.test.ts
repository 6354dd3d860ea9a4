import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedStreamFetch } from './guarded-stream-fetch.js';
import { parseAllowHosts } from './allow-hosts.js';
import { messageCappedBody } from './message-capped-body.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

async function read(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('messageCappedBody', () => {
  const shownUrl = 'http://example.test/mcp';

  it('passes an ordinary body up to the cap and fails one past it', async () => {
    expect(await read(messageCappedBody(streamOf('12345', '67890'), { maxMessageBytes: 10, eventStream: false, shownUrl }))).toBe('1234567890');
    await expect(read(messageCappedBody(streamOf('12345', '678901'), { maxMessageBytes: 10, eventStream: false, shownUrl }))).rejects.toThrow(
      'Request to http://example.test/mcp failed: the response passed 10 bytes, the cap on one message',
    );
  });

  it('caps each event of an event stream, not the stream: many small events pass, one large event fails', async () => {
    const events = Array.from({ length: 50 }, (_, index) => `data: event ${index} padding\n\n`);
    expect(await read(messageCappedBody(streamOf(...events), { maxMessageBytes: 30, eventStream: true, shownUrl }))).toBe(events.join(''));
    // CRLF and CR line ends end events too; a split CRLF pair across chunks ends one line, not two.
    const crlf = ['data: aaaaaaaaaa\r', '\n\r\n', 'data: bbbbbbbbbb\r\r', 'data: cccccccccc\n\n'];
    expect(await read(messageCappedBody(streamOf(...crlf), { maxMessageBytes: 20, eventStream: true, shownUrl }))).toBe(crlf.join(''));
    // Two lines of one event count together.
    await expect(read(messageCappedBody(streamOf('data: aaaaaaaaaa\r\n', 'data: bbbbbbbbbb\n\n'), { maxMessageBytes: 20, eventStream: true, shownUrl }))).rejects.toThrow(
      'one event of the stream passed 20 bytes',
    );
  });
});

describe('createGuardedStreamFetch caps', () => {
  let server: Server;
  let base: string;
  let fetch: ReturnType<typeof createGuardedStreamFetch>;
  // What the deadline tests wait for; long enough that a loaded machine still connects within it.
  const deadlineMs = 1_000;
  let patientFetch: ReturnType<typeof createGuardedStreamFetch>;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/declared') return void response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' }).end('x'.repeat(1000));
      if (request.url === '/stalled') return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"partial":');
      if (request.url === '/events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: first\n\n');
        // The second event comes after the exchange deadline: an event stream is exempt from it.
        setTimeout(() => response.end('data: second\n\n'), 2 * deadlineMs);
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    fetch = createGuardedStreamFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${port}`), maxMessageBytes: 100, timeoutMs: deadlineMs });
    patientFetch = createGuardedStreamFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${port}`), maxMessageBytes: 100, timeoutMs: 30_000 });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a response whose declared length passes the cap before reading it', async () => {
    await expect(patientFetch(`${base}/declared`)).rejects.toThrow('the response declares 1000 bytes, more than 100, the cap on one message');
  });

  it('ends an ordinary response whose body does not finish in time', async () => {
    const response = await fetch(`${base}/stalled`);
    await expect(response.text()).rejects.toThrow(`no complete response within ${deadlineMs} ms`);
  });

  it('lets an event stream stay open past the deadline, event after event', async () => {
    const response = await fetch(`${base}/events`);
    expect(response.url).toBe(`${base}/events`);
    expect(await response.text()).toBe('data: first\n\ndata: second\n\n');
  });
});
