import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp, type HttpListener } from '../http/index.js';
import { StreamableHttpEndpoint } from './streamable-http-endpoint.js';

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('StreamableHttpEndpoint session bounds', () => {
  let listener: HttpListener | undefined;
  let endpoint: StreamableHttpEndpoint | undefined;
  const streams: ClientRequest[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.destroy();
    await endpoint?.close();
    await listener?.close();
  });

  /** An endpoint whose clock only moves when the test says so. */
  async function start(options: { maxSessions: number; sessionIdleMs: number }) {
    const clock = { now: 0 };
    endpoint = new StreamableHttpEndpoint({ createServer: () => new Server({ name: 't', version: '1' }, { capabilities: {} }), ...options, now: () => clock.now });
    const served = endpoint;
    listener = await listenHttp({ host: '127.0.0.1', port: 0, handle: (request, response) => served.handle(request, response) });
    return clock;
  }

  function open(method: string, extra: Record<string, string>, body?: unknown): Promise<{ request: ClientRequest; response: IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: listener!.port, path: '/mcp', method, headers: { ...headers, ...extra } }, (response) => resolve({ request, response }));
      request.on('error', reject);
      request.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  async function send(method: string, extra: Record<string, string>, body?: unknown): Promise<IncomingMessage> {
    const { response } = await open(method, extra, body);
    response.resume();
    await new Promise((resolve) => response.once('end', resolve));
    return response;
  }

  it('ends a session idle for sessionIdleMs, which frees its place and makes its id unknown', async () => {
    const clock = await start({ maxSessions: 1, sessionIdleMs: 1_000 });
    const first = await send('POST', {}, initialize);
    const sessionId = String(first.headers['mcp-session-id']);

    clock.now = 999;
    const early = await send('POST', {}, initialize);
    clock.now = 1_000;
    const later = await send('POST', {}, initialize);
    const stale = await send('POST', { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 2, method: 'ping' });

    expect(first.statusCode).toBe(200);
    expect(early.statusCode).toBe(503);
    expect(later.statusCode).toBe(200);
    expect(stale.statusCode).toBe(404);
  });

  it('never ends a session while its event stream is open, however long it stays quiet', async () => {
    const clock = await start({ maxSessions: 1, sessionIdleMs: 1_000 });
    const first = await send('POST', {}, initialize);
    const session = { 'mcp-session-id': String(first.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
    await send('POST', session, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const stream = await open('GET', { ...session, accept: 'text/event-stream' });
    streams.push(stream.request);

    clock.now = 60_000;
    const refused = await send('POST', {}, initialize);
    const stillThere = await send('POST', session, { jsonrpc: '2.0', id: 2, method: 'ping' });

    expect(stream.response.statusCode).toBe(200);
    expect(refused.statusCode).toBe(503);
    expect(stillThere.statusCode).toBe(200);
  });
});
