import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WORLD_SEARCH_HOST, WORLD_TOPICS, docsHost, officialPath, topicOf, topicPages, worldHosts, type WorldPage } from './fixture-world.js';

/** The fixture world running on 127.0.0.1 for as long as it is open. */
export interface FixtureWorldServer {
  readonly port: number;
  /** `FORGE_RESOLVE` entries pinning every world host (at this port) to 127.0.0.1. */
  readonly resolve: string;
  /** `FORGE_ALLOW_HOSTS` entries for every world host at this port. */
  readonly allowHosts: string;
  /** `FORGE_SEARXNG_URL` for the world's search engine. */
  readonly searchUrl: string;
  /** The full URL of a world path on a world host. */
  url(host: string, path: string): string;
  /** The official release-notes URL of a topic. */
  officialUrl(name: string): string;
  /** Paths of every request served, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the fixture world: every page on its own host name (told apart by the Host header) and a
 * search engine speaking SearXNG's JSON format that ranks each topic's pages in a fixed mixed order.
 * The ports are ephemeral; callers pin the host names with FORGE_RESOLVE and let them through the SSRF
 * guard with FORGE_ALLOW_HOSTS, so nothing leaves the machine.
 */
export async function startFixtureWorld(): Promise<FixtureWorldServer> {
  let port = 0;
  const requests: string[] = [];
  const url = (host: string, path: string) => `http://${host}:${port}${path}`;
  const ranked = new Map(WORLD_TOPICS.map((entry, rank) => [entry.name, topicPages(entry, rank)]));
  const pages: WorldPage[] = [...ranked.values()].flat();
  const server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const target = new URL(request.url ?? '/', 'http://world.invalid');
    requests.push(`${host}${target.pathname}`);
    if (host === WORLD_SEARCH_HOST && target.pathname === '/search') {
      const query = target.searchParams.get('q') ?? '';
      const found = topicOf(query);
      const results = found === undefined ? [] : (ranked.get(found.name) ?? []);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          query,
          number_of_results: results.length,
          results: results.map((page, index) => ({ url: url(page.host, page.path), title: page.title, content: page.snippet, engine: 'forge-world', positions: [index + 1], score: 1 / (index + 1) })),
          answers: [],
          suggestions: [],
          unresponsive_engines: [],
        }),
      );
      return;
    }
    const page = pages.find((candidate) => candidate.host === host && `${candidate.path.split('?')[0]}` === target.pathname);
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<html><body><h1>Not found</h1></body></html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const hosts = worldHosts();
  return {
    port,
    resolve: hosts.map((host) => `${host}:${port}:127.0.0.1`).join(','),
    allowHosts: hosts.map((host) => `${host}:${port}`).join(','),
    searchUrl: `http://${WORLD_SEARCH_HOST}:${port}`,
    url,
    officialUrl: (name) => url(docsHost(name), officialPath()),
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
