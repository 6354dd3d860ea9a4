import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForgeError, NetworkBlockedError, NetworkError } from '../core/index.js';
import type { DnsLookup, ResolvedAddress } from './dns-lookup.js';
import { createGuardedFetch, type GuardedFetchOptions } from './guarded-fetch.js';

/** What the target server saw: if a blocked request shows up here, the guard failed. */
interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface TargetServer {
  readonly port: number;
  readonly seen: SeenRequest[];
  onHang: (() => void) | undefined;
  close(): Promise<void>;
}

/** A real HTTP server on one loopback address, with the handful of routes the attacks need. */
async function startTargetServer(host: string): Promise<TargetServer> {
  const seen: SeenRequest[] = [];
  const target: TargetServer = { port: 0, seen, onHang: undefined, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      seen.push({ method: request.method ?? '', path, headers: request.headers, body });
      const redirect = (location: string, status = 302) => response.writeHead(status, { location }).end();
      if (path === '/hop-to-loopback') return redirect(`http://127.0.0.1:${target.port}/secret`);
      if (path === '/hop-to-ipv6-loopback') return redirect(`http://[::1]:${target.port}/secret`);
      if (path === '/hop-to-metadata') return redirect('http://169.254.169.254/latest/meta-data/iam/security-credentials/');
      if (path === '/hop-to-file') return redirect('file:///etc/passwd');
      if (path === '/hop-same-host') return redirect('/final');
      if (path === '/hop-cross-origin') return redirect(`http://127.0.0.1:${target.port}/final`);
      if (path === '/see-other') return redirect('/final', 303);
      if (path === '/loop') return redirect('/loop');
      if (path === '/big') return response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
      if (path === '/ten-bytes') return response.writeHead(200, { 'content-type': 'text/plain' }).end('0123456789');
      if (path === '/latin1') return response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      if (path === '/hang') return target.onHang?.();
      response.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': 'target' }).end(`reached ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return Object.assign(target, {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A resolver that answers from a table and counts every question. */
function tableLookup(table: Record<string, readonly ResolvedAddress[]>): DnsLookup & { readonly questions: string[] } {
  const questions: string[] = [];
  const lookup = async (hostName: string) => {
    questions.push(hostName);
    const answer = table[hostName];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostName}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return Object.assign(lookup, { questions });
}

async function refusal(promise: Promise<unknown>): Promise<NetworkBlockedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ForgeError.isInstance(error) && error instanceof NetworkBlockedError, `expected a NetworkBlockedError, got ${String(error)}`).toBe(true);
  return error as NetworkBlockedError;
}

async function failure(promise: Promise<unknown>): Promise<NetworkError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ForgeError.isInstance(error) && error instanceof NetworkError, `expected a NetworkError, got ${String(error)}`).toBe(true);
  return error as NetworkError;
}

const ipv4 = (address: string): ResolvedAddress => ({ address, family: 4 });

let server: TargetServer;
let ipv6Server: TargetServer;
let otherServer: TargetServer;

beforeAll(async () => {
  server = await startTargetServer('127.0.0.1');
  ipv6Server = await startTargetServer('::1');
  otherServer = await startTargetServer('127.0.0.1');
});

afterAll(async () => {
  await Promise.all([server.close(), ipv6Server.close(), otherServer.close()]);
});

beforeEach(() => {
  for (const target of [server, ipv6Server, otherServer]) target.seen.length = 0;
});

function guard(options: GuardedFetchOptions = {}) {
  // A resolver that knows nothing: any DNS question in these tests is visible and fails.
  return createGuardedFetch({ lookup: tableLookup({}), timeoutMs: 5_000, ...options });
}

describe('the guard refuses loopback, private and metadata targets by default', () => {
  const loopbackForms = () => [
    [`http://127.0.0.1:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://127.1:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://0x7f000001:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://2130706433:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://0177.0.0.1:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://127.0.0.1.:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://[::ffff:127.0.0.1]:${server.port}/`, 'IPv4-mapped IPv6 address embedding 127.0.0.1, a loopback address'],
    [`http://[::127.0.0.1]:${server.port}/`, 'IPv4-compatible IPv6 address embedding 127.0.0.1'],
    [`http://public.example@127.0.0.1:${server.port}/`, '127.0.0.1 is a loopback address'],
    [`http://127.0.0.1:${server.port}#@public.example/`, '127.0.0.1 is a loopback address'],
  ];

  it('refuses every spelling of 127.0.0.1, and the server never sees a request', async () => {
    const fetch = guard();
    for (const [url = '', reason = ''] of loopbackForms()) {
      const error = await refusal(fetch(url));
      expect(error.message).toContain(reason);
      expect(error.hint).toContain(`FORGE_ALLOW_HOSTS=${url.includes('[') ? new URL(url).hostname : '127.0.0.1'}:${server.port}`);
    }
    expect(server.seen).toEqual([]);
  });

  it('refuses [::1]', async () => {
    const error = await refusal(guard()(`http://[::1]:${ipv6Server.port}/`));
    expect(error.message).toContain('::1 is a loopback address');
    expect(ipv6Server.seen).toEqual([]);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'],
    ['http://[fd00:ec2::254]/latest/meta-data', 'fd00:ec2::254 is a cloud metadata address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private (RFC 1918) address'],
    ['http://192.168.1.1:8080/admin', '192.168.1.1 is a private (RFC 1918) address'],
    ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT'],
    ['http://0.0.0.0/', '0.0.0.0 is an unspecified'],
    ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://[fd12:3456::1]/', 'unique local (ULA)'],
    ['http://[::ffff:a9fe:a9fe]/', 'embedding 169.254.169.254, a cloud metadata address'],
    ['http://[64:ff9b::a00:1]/', 'NAT64 IPv6 address embedding 10.0.0.1'],
    ['http://[2002:7f00:1::]/', '6to4 IPv6 address embedding 127.0.0.1'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal is a cloud metadata host name'],
    ['http://LOCALHOST:8080/', 'localhost is a loopback host name'],
    ['http://admin.localhost/', 'admin.localhost is a loopback host name'],
  ])('refuses %s before any DNS lookup or connection', async (url, reason) => {
    const lookup = tableLookup({});
    const error = await refusal(createGuardedFetch({ lookup })(url));
    expect(error.message).toContain(reason);
    expect(error.hint).toContain('FORGE_ALLOW_HOSTS');
    expect(lookup.questions).toEqual([]);
  });

  it.each(['file:///etc/passwd', 'gopher://127.0.0.1:70/_GET%20/', 'ftp://ftp.example.com/pub/', 'data:text/plain,hello', 'javascript:alert(1)', 'ws://example.com/'])(
    'refuses the %s scheme with a hint that allow-listing cannot help',
    async (url) => {
      const error = await refusal(guard({ allowHosts: [`127.0.0.1:${server.port}`] })(url));
      expect(error.message).toMatch(/URLs are not allowed; only http and https can be fetched/);
      expect(error.hint).not.toContain('FORGE_ALLOW_HOSTS');
    },
  );

  it('masks credentials of a refused URL in the message', async () => {
    const error = await refusal(guard()(`http://user:s3cret-key@127.0.0.1:${server.port}/`));
    expect(error.message).not.toContain('s3cret-key');
    expect(error.url).toBe(`http://***@127.0.0.1:${server.port}/`);
  });

  it('reports a malformed URL as a network error', async () => {
    const error = await failure(guard()('not a url'));
    expect(error.message).toContain('not a valid absolute URL');
  });
});

describe('the allow list lets exactly the listed host:port through', () => {
  it('reaches every spelling of 127.0.0.1 once 127.0.0.1:<port> is listed', async () => {
    const fetch = guard({ allowHosts: [`127.0.0.1:${server.port}`] });
    const spellings = ['127.0.0.1', '127.1', '0x7f000001', '2130706433', '0177.0.0.1'];
    for (const host of spellings) {
      const response = await fetch(`http://${host}:${server.port}/hello`);
      expect(response.status).toBe(200);
      expect(response.text()).toBe('reached /hello');
      expect(response.url).toBe(`http://127.0.0.1:${server.port}/hello`);
    }
    expect(server.seen).toHaveLength(spellings.length);
  });

  it('reaches [::1] and [::ffff:127.0.0.1] when listed', async () => {
    const fetch = guard({ allowHosts: [`[::1]:${ipv6Server.port}`, `[::ffff:127.0.0.1]:${server.port}`] });
    expect((await fetch(`http://[::1]:${ipv6Server.port}/six`)).text()).toBe('reached /six');
    expect((await fetch(`http://[::ffff:127.0.0.1]:${server.port}/mapped`)).text()).toBe('reached /mapped');
    expect(ipv6Server.seen.map((request) => request.path)).toEqual(['/six']);
    expect(server.seen.map((request) => request.path)).toEqual(['/mapped']);
  });

  it('does not relax another port or another name for the same address', async () => {
    const lookup = tableLookup({ 'intranet.example': [ipv4('127.0.0.1')] });
    const fetch = createGuardedFetch({ allowHosts: [`127.0.0.1:${server.port}`], lookup });
    await refusal(fetch(`http://127.0.0.1:${otherServer.port}/`));
    await refusal(fetch(`http://localhost:${server.port}/`));
    await refusal(fetch(`http://intranet.example:${server.port}/`));
    await refusal(fetch(`http://[::ffff:127.0.0.1]:${server.port}/`));
    expect(server.seen).toEqual([]);
    expect(otherServer.seen).toEqual([]);
  });
});

describe('host names are judged by every address they resolve to', () => {
  it('refuses a name that resolves to loopback and never connects', async () => {
    const lookup = tableLookup({ 'intranet.example': [ipv4('127.0.0.1')] });
    const error = await refusal(createGuardedFetch({ lookup })(`http://intranet.example:${server.port}/`));
    expect(error.message).toContain('intranet.example resolves to 127.0.0.1, a loopback address');
    expect(error.hint).toContain(`FORGE_ALLOW_HOSTS=intranet.example:${server.port}`);
    expect(server.seen).toEqual([]);
  });

  it('refuses a name when any one of its addresses is blocked', async () => {
    const lookup = tableLookup({ 'mixed.example': [ipv4('93.184.216.34'), { address: '::ffff:10.1.2.3', family: 6 }] });
    const error = await refusal(createGuardedFetch({ lookup })('http://mixed.example/'));
    expect(error.message).toContain('mixed.example resolves to ::ffff:10.1.2.3, an IPv4-mapped IPv6 address embedding 10.1.2.3, a private');
  });

  it('connects to the allowed name through the vetted address and sends its Host header', async () => {
    const lookup = tableLookup({ 'intranet.example': [ipv4('127.0.0.1')] });
    const response = await createGuardedFetch({ lookup, allowHosts: [`intranet.example:${server.port}`] })(`http://intranet.example:${server.port}/named`);
    expect(response.text()).toBe('reached /named');
    expect(server.seen[0]?.headers.host).toBe(`intranet.example:${server.port}`);
    expect(lookup.questions).toEqual(['intranet.example']);
  });

  it('asks DNS once per hop and connects to that answer, not to a later one (no rebinding)', async () => {
    const questions: string[] = [];
    // First answer: the address that passes (allowed here); any later answer points where nothing listens.
    const rebindingLookup: DnsLookup = async (hostName) => {
      questions.push(hostName);
      return [ipv4(questions.length === 1 ? '127.0.0.1' : '127.0.0.2')];
    };
    const response = await createGuardedFetch({ lookup: rebindingLookup, allowHosts: [`rebind.example:${server.port}`] })(`http://rebind.example:${server.port}/pinned`);
    expect(response.text()).toBe('reached /pinned');
    expect(questions).toEqual(['rebind.example']);
  });

  it('reports a name that does not resolve as a network error', async () => {
    const error = await failure(guard()('http://nowhere.example/'));
    expect(error.message).toContain('The host name nowhere.example cannot be resolved.');
    expect(error.message).not.toContain('ENOTFOUND');
    expect(error.hint).toMatch(/Check the spelling of the host/);
  });
});

describe('FORGE_RESOLVE pins skip DNS but not judgement', () => {
  it('refuses a name pinned to loopback without asking DNS', async () => {
    const lookup = tableLookup({});
    const fetch = createGuardedFetch({ lookup, resolve: [{ host: 'pinned.example', port: server.port, address: '127.0.0.1' }] });
    const error = await refusal(fetch(`http://pinned.example:${server.port}/`));
    expect(error.message).toContain('pinned.example is pinned by FORGE_RESOLVE to 127.0.0.1, a loopback address');
    expect(lookup.questions).toEqual([]);
    expect(server.seen).toEqual([]);
  });

  it('reaches the pinned address when the pinned host:port is also allowed', async () => {
    const lookup = tableLookup({});
    const fetch = createGuardedFetch({
      lookup,
      resolve: [{ host: 'pinned.example', port: server.port, address: '127.0.0.1' }],
      allowHosts: [`pinned.example:${server.port}`],
    });
    expect((await fetch(`http://Pinned.Example:${server.port}/p`)).text()).toBe('reached /p');
    expect(server.seen[0]?.headers.host).toBe(`pinned.example:${server.port}`);
    expect(lookup.questions).toEqual([]);
  });
});

describe('redirects are followed by hand and every hop is judged again', () => {
  const publicLooking = () =>
    guard({
      resolve: [{ host: 'public.example', port: server.port, address: '127.0.0.1' }],
      allowHosts: [`public.example:${server.port}`],
    });

  it.each([
    ['/hop-to-loopback', '127.0.0.1 is a loopback address'],
    ['/hop-to-ipv6-loopback', '::1 is a loopback address'],
    ['/hop-to-metadata', '169.254.169.254 is a cloud metadata address'],
    ['/hop-to-file', 'file: URLs are not allowed'],
  ])('refuses an allowed host redirecting %s', async (path, reason) => {
    const error = await refusal(publicLooking()(`http://public.example:${server.port}${path}`));
    expect(error.message).toContain(reason);
    expect(server.seen.map((request) => request.path)).toEqual([path]);
    expect(ipv6Server.seen).toEqual([]);
  });

  it('follows redirects between allowed hosts and reports the chain', async () => {
    const fetch = guard({
      resolve: [{ host: 'public.example', port: server.port, address: '127.0.0.1' }],
      allowHosts: [`public.example:${server.port}`, `127.0.0.1:${server.port}`],
    });
    const response = await fetch(`http://public.example:${server.port}/hop-same-host`);
    expect(response.url).toBe(`http://public.example:${server.port}/final`);
    expect(response.redirects).toEqual([`http://public.example:${server.port}/hop-same-host`]);
    expect(response.text()).toBe('reached /final');
  });

  it('keeps credentials on the same origin and drops them on another origin', async () => {
    const fetch = guard({
      resolve: [{ host: 'public.example', port: server.port, address: '127.0.0.1' }],
      allowHosts: [`public.example:${server.port}`, `127.0.0.1:${server.port}`],
    });
    const secrets = { authorization: 'Bearer secret-token', 'x-subscription-token': 'secret-key', 'user-agent': 'forge-test' };
    await fetch(`http://public.example:${server.port}/hop-same-host`, { headers: secrets });
    await fetch(`http://public.example:${server.port}/hop-cross-origin`, { headers: secrets });
    const [, sameOriginFinal, , crossOriginFinal] = server.seen;
    expect(sameOriginFinal?.headers['x-subscription-token']).toBe('secret-key');
    expect(sameOriginFinal?.headers.authorization).toBe('Bearer secret-token');
    expect(crossOriginFinal?.path).toBe('/final');
    expect(crossOriginFinal?.headers['x-subscription-token']).toBeUndefined();
    expect(crossOriginFinal?.headers.authorization).toBeUndefined();
    expect(crossOriginFinal?.headers['user-agent']).toBe('forge-test');
  });

  it('turns a POST into a GET without body after 303', async () => {
    const fetch = guard({ allowHosts: [`127.0.0.1:${server.port}`] });
    await fetch(`http://127.0.0.1:${server.port}/see-other`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(server.seen.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/see-other', '{"a":1}'],
      ['GET', '/final', ''],
    ]);
    expect(server.seen[1]?.headers['content-type']).toBeUndefined();
  });

  it('stops after maxRedirects hops', async () => {
    const fetch = guard({ allowHosts: [`127.0.0.1:${server.port}`], maxRedirects: 3 });
    const error = await failure(fetch(`http://127.0.0.1:${server.port}/loop`));
    expect(error.message).toContain('more than 3 redirects');
    expect(server.seen).toHaveLength(4);
  });
});

describe('bytes and time are capped', () => {
  const allowed = (options: GuardedFetchOptions = {}) => guard({ allowHosts: [`127.0.0.1:${server.port}`], ...options });

  it('stops reading at maxBytes and marks the response truncated', async () => {
    const response = await allowed({ maxBytes: 1_000 })(`http://127.0.0.1:${server.port}/big`);
    expect(response.body.length).toBe(1_000);
    expect(response.truncated).toBe(true);
    expect(response.text()).toBe('x'.repeat(1_000));
  });

  it('does not mark a body that fits exactly', async () => {
    const response = await allowed({ maxBytes: 10 })(`http://127.0.0.1:${server.port}/ten-bytes`);
    expect(response.text()).toBe('0123456789');
    expect(response.truncated).toBe(false);
  });

  it('decodes text with the charset of the content type', async () => {
    const response = await allowed()(`http://127.0.0.1:${server.port}/latin1`);
    expect(response.text()).toBe('café');
    expect(response.headers['content-type']).toBe('text/plain; charset=iso-8859-1');
  });

  it('gives up when the total time runs out', async () => {
    const error = await failure(allowed({ timeoutMs: 300 })(`http://127.0.0.1:${server.port}/hang`));
    expect(error.message).toContain('no complete response within 300 ms');
  });

  it("honours the caller's signal", async () => {
    const controller = new AbortController();
    server.onHang = () => controller.abort();
    try {
      const error = await failure(allowed()(`http://127.0.0.1:${server.port}/hang`, { signal: controller.signal }));
      expect(error.message).toContain('the request was cancelled');
    } finally {
      server.onHang = undefined;
    }
  });
});
