import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch.js';
import { requestHeaders } from './request-headers.js';

describe('request headers the guard owns', () => {
  let server: Server;
  let origin: string;
  const seen: { headers: IncomingHttpHeaders; rawHeaders: string[]; body: string }[] = [];
  const fetch = () => createGuardedFetch({ allowHosts: [`127.0.0.1:${(server.address() as AddressInfo).port}`] });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ headers: request.headers, rawHeaders: request.rawHeaders, body });
        if (request.url === '/hop') return response.writeHead(307, { location: '/final' }).end();
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`host was ${request.headers.host ?? ''}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends Host from the URL whatever Host the caller names, in any case, on every redirect hop too', async () => {
    seen.length = 0;

    const response = await fetch()(`${origin}/hop`, { headers: { Host: 'admin.internal', HOST: 'admin.internal', hoSt: 'admin.internal' } });

    expect(response.text()).toBe(`host was ${new URL(origin).host}`);
    expect(seen.map((request) => request.headers.host)).toEqual([new URL(origin).host, new URL(origin).host]);
    expect(seen.every((request) => request.rawHeaders.filter((name) => name.toLowerCase() === 'host').length === 1)).toBe(true);
  });

  it("frames the body it sends itself: a caller's Content-Length, Transfer-Encoding or Expect cannot disagree with it", async () => {
    seen.length = 0;
    const body = 'a body of twenty-six bytes';

    const response = await fetch()(`${origin}/post`, {
      method: 'POST',
      body,
      headers: { 'Content-Length': '3', 'Transfer-Encoding': 'chunked', Expect: '100-continue', 'content-type': 'text/plain' },
    });

    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body).toBe(body);
    expect(seen[0]!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(seen[0]!.headers['expect']).toBeUndefined();
    expect(seen[0]!.headers['content-type']).toBe('text/plain');
  });

  it('drops hop-by-hop headers and keeps the rest of what the caller sent', async () => {
    seen.length = 0;

    await fetch()(`${origin}/plain`, {
      headers: { Connection: 'upgrade', Upgrade: 'websocket', 'Keep-Alive': 'timeout=600', TE: 'trailers', Trailer: 'x-late', 'Proxy-Connection': 'keep-alive', 'Proxy-Authorization': 'Basic eA==', 'Accept-Encoding': 'gzip', 'X-Api-Key': 'k1', Cookie: 'session=1' },
    });

    const headers = seen[0]!.headers;
    for (const name of ['upgrade', 'keep-alive', 'te', 'trailer', 'proxy-connection', 'proxy-authorization']) expect(headers[name], name).toBeUndefined();
    expect(headers['connection']).not.toContain('upgrade');
    expect(headers['accept-encoding']).toBe('identity');
    expect(headers['x-api-key']).toBe('k1');
    expect(headers['cookie']).toBe('session=1');
  });

  it('builds headers without a prototype, so a header named __proto__ is just a name', () => {
    const headers = requestHeaders({ accept: '*/*' }, JSON.parse('{"__proto__": {"polluted": "yes"}, "X-One": "1"}') as Record<string, string>);

    expect(Object.getPrototypeOf(headers)).toBeNull();
    expect(Object.keys(headers).sort()).toEqual(['__proto__', 'accept', 'x-one']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
