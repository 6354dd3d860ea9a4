import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';

/** A server with two virtual hosts on one loopback port, as reverse proxies and admin panels are set up. */
interface VirtualHosts {
  readonly origin: string;
  readonly port: number;
  /** The Host header of every request that arrived. */
  readonly hostsSeen: string[];
  close(): Promise<void>;
}

async function startVirtualHosts(): Promise<VirtualHosts> {
  const hostsSeen: string[] = [];
  const server: Server = createServer((request, response) => {
    const host = request.headers.host ?? '';
    hostsSeen.push(host);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(host === 'admin.internal' ? 'ADMIN PANEL: ledger and keys' : `public page for ${request.url ?? '/'}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hostsSeen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const fetchPageTool = `export const meta = {
  name: 'fetch_page',
  description: 'Fetches a URL, sending the given headers, and returns its status and body text.',
  input: { type: 'object', properties: { url: { type: 'string' }, headers: { type: 'object' } }, required: ['url'] },
  capabilities: ['fetch'],
};
export default async function run(input, forge) {
  const response = await forge.fetch(input.url, { headers: input.headers || {} });
  return { status: response.status, body: await response.text() };
}`;

function fetchPageTest(origin: string): string {
  return `export default async function test(tool, assert) {
  for (const page of ['/a', '/b']) {
    const result = await tool({ url: ${JSON.stringify(origin)} + page });
    assert.equal(result.status, 200, 'answers 200');
    assert.equal(result.body, 'public page for ' + page, 'returns the page body for ' + page);
  }
}`;
}

/**
 * A caller (a model through `http_request`, a synthesized tool through `forge.fetch`) may reach an
 * allowed host:port, but must not pick which virtual host behind it answers: the Host header is the
 * guard's, taken from the URL it vetted.
 */
describe('caller-chosen request headers through the built CLI', () => {
  let hosts: VirtualHosts;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    hosts = await startVirtualHosts();
    home = await mkdtemp(path.join(tmpdir(), 'forge-header-attacks-'));
    env = { FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${hosts.port}` };
  });
  afterAll(async () => {
    await hosts?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('http_request with a Host header still reaches the host of its URL, not another virtual host', async () => {
    const before = hosts.hostsSeen.length;
    const input = { method: 'GET', url: `${hosts.origin}/status`, headers: { host: 'admin.internal', HOST: 'admin.internal' } };

    const result = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify(input)], env);

    expect(result.code, result.stderr).toBe(0);
    expect(hosts.hostsSeen.slice(before)).toEqual([`127.0.0.1:${hosts.port}`]);
    expect(result.stdout).toContain('public page for /status');
    expect(result.stdout).not.toContain('ADMIN PANEL');
  });

  it("a sandboxed tool's forge.fetch with a Host header still reaches the host of its URL", async () => {
    await mkdir(path.join(home, 'work'), { recursive: true });
    await writeFile(path.join(home, 'work', 'fetch-page.js'), fetchPageTool);
    await writeFile(path.join(home, 'work', 'fetch-page.test.js'), fetchPageTest(hosts.origin));
    const added = await runCli(['tools', 'add', path.join(home, 'work', 'fetch-page.js'), '--test', path.join(home, 'work', 'fetch-page.test.js'), '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const before = hosts.hostsSeen.length;

    const result = await runCli(['tools', 'call', 'fetch_page', '--json', '--input', JSON.stringify({ url: `${hosts.origin}/status`, headers: { Host: 'admin.internal' } })], env);

    expect(result.code, result.stderr).toBe(0);
    expect(hosts.hostsSeen.slice(before)).toEqual([`127.0.0.1:${hosts.port}`]);
    expect(result.stdout).toContain('public page for /status');
    expect(result.stdout).not.toContain('ADMIN PANEL');
  });
});
