import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEMO_DOCS_HOST = 'docs.forge-demo.dev';
export const DEMO_BLOG_HOST = 'blog.forge-demo.org';
export const DEMO_SEARCH_HOST = 'search.forge-demo.dev';

interface DemoPage {
  readonly host: string;
  readonly path: string;
  readonly title: string;
  readonly snippet: string;
  readonly body: string;
}

const page = (title: string, main: string) => `<!doctype html><html><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> · <a href="/docs">Docs</a> · <a href="/pricing">Pricing</a></nav>
<div class="ad">Sponsored: try our premium plan today!</div>
<main><article><h1>${title}</h1>${main}</article></main>
<footer>© Forge demo · <a href="/privacy">Privacy</a></footer></body></html>`;

const PAGES: readonly DemoPage[] = [
  {
    host: DEMO_DOCS_HOST,
    path: '/skills',
    title: 'Skills: pay for reasoning once',
    snippet: 'How Forge records a successful run and replays it with zero model calls.',
    body: page(
      'Skills: pay for reasoning once',
      `<p>Forge records what actually succeeded in a run — every tool call, its input and its result — and turns that trace into a parameterized Skill.
The next time the same kind of task arrives, the Skill replays the tools directly with zero model calls, or with one tiny rescue call that may only choose among real candidates.</p>
<p>Values that came from the user become variables; values that came from earlier tool results, such as URLs, are resolved again from fresh results, cheapest strategy first.</p>
<h2>Why it matters</h2><p>An agent that solves the same problem every day should not pay full reasoning cost every day.</p>`,
    ),
  },
  {
    host: DEMO_BLOG_HOST,
    path: '/2026/agents-that-learn',
    title: 'Agents that learn their own tools',
    snippet: 'A blog post on self-extending agents and verification gates.',
    body: page(
      'Agents that learn their own tools',
      '<p>When no tool covers a step, a self-extending agent writes one, and a separate model attacks it with a black-box test inside a sandbox before it is ever used.</p>',
    ),
  },
];

/** A running demo site: a docs host, a blog host and a SearXNG-format search host, all on 127.0.0.1. */
export interface DemoSite {
  readonly port: number;
  /** `host:port:127.0.0.1` pins for FORGE_RESOLVE. */
  readonly resolve: string;
  /** `host:port` entries for FORGE_ALLOW_HOSTS. */
  readonly allowHosts: string;
  readonly searchUrl: string;
  close(): Promise<void>;
}

function searchResults(query: string, port: number) {
  const words = query.toLowerCase().split(/\W+/).filter((word) => word.length > 2);
  const scored = PAGES.map((candidate) => ({
    candidate,
    score: words.filter((word) => `${candidate.title} ${candidate.snippet}`.toLowerCase().includes(word)).length,
  })).sort((left, right) => right.score - left.score);
  return {
    query,
    number_of_results: scored.length,
    results: scored.map(({ candidate, score }) => ({
      url: `http://${candidate.host}:${port}${candidate.path}`,
      title: candidate.title,
      content: candidate.snippet,
      engine: 'forge-demo',
      score,
    })),
  };
}

/** Starts the demo site on an ephemeral loopback port. */
export async function startDemoSite(): Promise<DemoSite> {
  let port = 0;
  const server: Server = createServer((request, response) => {
    const host = (request.headers.host ?? '').split(':')[0];
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (host === DEMO_SEARCH_HOST && url.pathname === '/search') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(searchResults(url.searchParams.get('q') ?? '', port)));
      return;
    }
    const found = PAGES.find((candidate) => candidate.host === host && candidate.path === url.pathname);
    if (found === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const hosts = [DEMO_DOCS_HOST, DEMO_BLOG_HOST, DEMO_SEARCH_HOST];
  return {
    port,
    resolve: hosts.map((host) => `${host}:${port}:127.0.0.1`).join(','),
    allowHosts: hosts.map((host) => `${host}:${port}`).join(','),
    searchUrl: `http://${DEMO_SEARCH_HOST}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
