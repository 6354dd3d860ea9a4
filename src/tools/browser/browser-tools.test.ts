import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnyTool, GuardedFetch, ToolContext } from '../../core/index.js';
import { rejection } from '../../../test/fixtures/tool-context.js';
import { createGuardedFetch, parseAllowHosts } from '../../security/index.js';
import { defaultBrowserLimits, type BrowserLimits } from './browser-limits.js';
import { BrowserPool } from './browser-pool.js';
import { browserToolsOver } from './browser-tools.js';
import type { BrowserExtractOutput, BrowserOpenOutput, BrowserPageOutput, BrowserSessionLimitError } from './index.js';
import { isClosableTool } from '../../core/index.js';
import { createBrowserTools } from './index.js';

const chromiumPath = '/usr/bin/chromium';

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** The allowed fixture site: the pages the tests browse, and every request it was sent. */
interface Site {
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Resolves when a request for `path` arrives; its response is held until the request goes away. */
  heldRequest(path: string): Promise<{ closed: Promise<void> }>;
  close(): Promise<void>;
}

/** A loopback server the guard does not allow: counts every TCP connection, HTTP request and UDP packet sent to its port. */
interface Forbidden {
  readonly port: number;
  readonly origin: string;
  connections: number;
  requests: number;
  packets: number;
  close(): Promise<void>;
}

function pages(deniedOrigin: string, deniedPort: number): Record<string, string> {
  return {
    '/': `<!doctype html><title>Fixture home</title>
      <nav><a href="/about">About</a> <a href="/form">Contact form</a> <a href="/article" target="_blank">Prices in a new tab</a> <a href="${deniedOrigin}/secret">Internal dashboard</a></nav>
      <main><h1>Fixture home</h1><p>A page for the browser tools.</p>
        <button onclick="this.textContent='Opened'">More</button> <button>More</button></main>
      <script>document.querySelector('main').insertAdjacentHTML('beforeend', '<p>Rendered by script</p>')</script>`,
    '/about': `<!doctype html><title>About</title><h1>About this site</h1><p>Nothing to see.</p>`,
    '/form': `<!doctype html><title>Contact</title><main><h1>Contact us</h1>
      <form method="post" action="/submit"><label>Name <input name="name"></label>
      <label>Message <textarea name="message"></textarea></label><button type="submit">Send</button></form></main>`,
    '/article': `<!doctype html><title>Prices</title><nav>Navigation links</nav>
      <main><h1>Prices</h1><p>All prices include tax.</p>
      <table class="prices"><tr><td>Tea</td><td>3 €</td></tr><tr><td>Cake</td><td>5 €</td></tr></table></main>
      <footer>Footer text</footer>`,
    '/long': `<!doctype html><title>Long</title>${Array.from({ length: 800 }, (_, index) => `<p><a href="/item/${index}">Item number ${index}</a></p>`).join('')}`,
    '/leaky': `<!doctype html><title>Leaky</title>
      <link rel="preconnect" href="${deniedOrigin}"><link rel="stylesheet" href="${deniedOrigin}/style.css">
      <script src="${deniedOrigin}/script.js"></script>
      <h1>Leaky page</h1><p id="status">waiting</p>
      <img src="${deniedOrigin}/pixel.png"><img src="/bounce"><iframe src="${deniedOrigin}/frame"></iframe>
      <script>
        const attempts = [
          fetch('${deniedOrigin}/fetch', { mode: 'no-cors' }).then(() => 'fetch answered', () => 'fetch refused'),
          new Promise((resolve) => { const socket = new WebSocket('ws://127.0.0.1:${deniedPort}/socket'); socket.onopen = () => resolve('socket open'); socket.onclose = () => resolve('socket closed'); }),
          new Promise((resolve) => {
            const worker = new Worker(URL.createObjectURL(new Blob(["fetch('${deniedOrigin}/worker').then(() => postMessage('answered'), () => postMessage('refused'))"])));
            worker.onmessage = (event) => resolve('worker ' + event.data);
          }),
        ];
        // A TURN relay over TCP is a connection request interception never sees.
        const peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${deniedPort}' }, { urls: 'turn:127.0.0.1:${deniedPort}?transport=tcp', username: 'u', credential: 'c' }] });
        peer.createDataChannel('leak');
        peer.createOffer().then((offer) => peer.setLocalDescription(offer));
        navigator.sendBeacon('${deniedOrigin}/beacon', 'leak');
        Promise.all(attempts).then((results) => { document.getElementById('status').textContent = 'done: ' + results.join(', '); });
      </script>`,
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function startForbidden(): Promise<Forbidden> {
  const server = createServer((request, response) => {
    forbidden.requests += 1;
    response.end('leaked');
  });
  server.on('connection', () => (forbidden.connections += 1));
  server.on('upgrade', (_request, socket) => {
    forbidden.requests += 1;
    socket.destroy();
  });
  const port = await listen(server);
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', () => (forbidden.packets += 1));
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  const forbidden: Forbidden = {
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: 0,
    requests: 0,
    packets: 0,
    close: async () => {
      udp.close();
      await closeServer(server);
    },
  };
  return forbidden;
}

async function startSite(deniedOrigin: string, deniedPort: number): Promise<Site> {
  const requests: SeenRequest[] = [];
  const holds = new Map<string, (held: { closed: Promise<void> }) => void>();
  const content = pages(deniedOrigin, deniedPort);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: request.method ?? 'GET', path, body });
      const hold = holds.get(path);
      if (hold !== undefined) {
        holds.delete(path);
        hold({ closed: new Promise((resolve) => response.on('close', () => resolve())) });
        return;
      }
      const html = (markup: string, status = 200) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(markup);
      if (path === '/submit' && request.method === 'POST') {
        const name = new URLSearchParams(body).get('name') ?? '';
        return html(`<!doctype html><title>Sent</title><h1>Thanks, ${name.replace(/[<>&]/g, '')}</h1>`);
      }
      if (path === '/welcome') {
        response.setHeader('set-cookie', ['session=ada; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly', 'theme=dark; Path=/']);
        return html('<!doctype html><title>Welcome</title><p>Cookies set.</p>');
      }
      if (path === '/old-account') return response.writeHead(301, { location: '/account' }).end();
      if (path === '/bounce') return response.writeHead(302, { location: `${deniedOrigin}/bounced` }).end();
      if (path === '/account') {
        const cookies = new URLSearchParams((request.headers.cookie ?? '').replace(/;\s*/g, '&'));
        return html(`<!doctype html><title>Account</title><p>Signed in as ${cookies.get('session') ?? 'nobody'} with theme ${cookies.get('theme') ?? 'none'}</p>`);
      }
      const page = content[path];
      return page === undefined ? html('<title>Not found</title><h1>Not found</h1>', 404) : html(page);
    });
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    heldRequest: (path) => new Promise((resolve) => holds.set(path, resolve)),
    close: () => closeServer(server),
  };
}

/** The runs a test started; each is cancelled after the test, which closes its browser context. */
const runs: AbortController[] = [];

function toolContext(runId: string, fetch: GuardedFetch, run = new AbortController()): ToolContext {
  runs.push(run);
  return { runId, callId: `call-${runId}`, signal: run.signal, fetch, utilityModel: undefined };
}

function toolNamed<Tool extends AnyTool>(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** The ref the snapshot gives the line `role "name"`. */
function refOf(snapshot: string, role: string, name: string): string {
  const line = snapshot.split('\n').find((candidate) => candidate.includes(`] ${role} "${name}"`));
  const ref = /\[((?:f\d+)?e\d+)\]/.exec(line ?? '')?.[1];
  if (ref === undefined) throw new Error(`no ${role} "${name}" in:\n${snapshot}`);
  return ref;
}

let forbidden: Forbidden;
let site: Site;
let fetch: GuardedFetch;
let pool: BrowserPool;
let tools: AnyTool[];

function call<Output>(name: string, input: unknown, context: ToolContext): Promise<Output> {
  const tool = toolNamed(tools, name);
  return tool.execute(tool.inputSchema.parse(input), context) as Promise<Output>;
}

function poolWith(limits: Partial<BrowserLimits>): BrowserPool {
  return new BrowserPool({ env: { FORGE_CHROMIUM_PATH: chromiumPath }, fetch, limits: { ...defaultBrowserLimits, settleMs: 2_000, ...limits } });
}

beforeAll(async () => {
  forbidden = await startForbidden();
  site = await startSite(forbidden.origin, forbidden.port);
  fetch = createGuardedFetch({ allowHosts: parseAllowHosts(new URL(site.origin).host), resolve: [] });
  pool = poolWith({});
  tools = browserToolsOver(pool);
});

afterAll(async () => {
  await pool?.close();
  await Promise.all([site?.close(), forbidden?.close()]);
});

afterEach(() => {
  for (const run of runs.splice(0)) run.abort('the test ended');
});

beforeEach(() => {
  site.requests.length = 0;
  forbidden.connections = 0;
  forbidden.requests = 0;
  forbidden.packets = 0;
});

describe('browser tools', () => {
  it('are five external tools: reading ones medium read, clicking and typing medium write', () => {
    const made = createBrowserTools({ fetch, env: {} });
    expect(made.map((tool) => [tool.name, tool.risk, tool.sideEffect, tool.external])).toEqual([
      ['browser_open', 'medium', 'read', true],
      ['browser_snapshot', 'medium', 'read', true],
      ['browser_click', 'medium', 'write', true],
      ['browser_type', 'medium', 'write', true],
      ['browser_extract', 'medium', 'read', true],
    ]);
    expect(made.every(isClosableTool)).toBe(true);
  });

  it('open a page, run its script, and show it as compact text with refs that stay the same', async () => {
    const context = toolContext('run-open', fetch);
    const page = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/` }, context);
    expect(page).toMatchObject({ url: `${site.origin}/`, title: 'Fixture home', status: 200, snapshot_truncated: false, blocked_requests: 0 });
    const lines = page.snapshot.split('\n');
    expect(lines).toContain('main:');
    expect(lines).toContain('  # Fixture home');
    expect(lines).toContain('  Rendered by script');
    expect(lines.some((line) => /^ {2}\[e\d+\] link "Contact form" → http:\/\/127\.0\.0\.1:\d+\/form$/.test(line))).toBe(true);
    expect(lines.filter((line) => / button "More"$/.test(line))).toHaveLength(2);
    const again = await call<BrowserPageOutput>('browser_snapshot', {}, context);
    expect(again.snapshot).toBe(page.snapshot);
    expect(site.requests.map((request) => request.path)).toEqual(['/']);
  });

  it('click a link by its ref and by its text; refuse a text that several elements show', async () => {
    const context = toolContext('run-click', fetch);
    const home = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/` }, context);
    const form = await call<BrowserPageOutput>('browser_click', { ref: refOf(home.snapshot, 'link', 'Contact form') }, context);
    expect(form).toMatchObject({ url: `${site.origin}/form`, title: 'Contact' });
    await call('browser_open', { url: `${site.origin}/` }, context);
    const about = await call<BrowserPageOutput>('browser_click', { text: 'About' }, context);
    expect(about.snapshot.split('\n')).toContain('# About this site');
    await call('browser_open', { url: `${site.origin}/` }, context);
    const popup = await call<BrowserPageOutput>('browser_click', { text: 'Prices in a new tab' }, context);
    expect(popup).toMatchObject({ url: `${site.origin}/article`, title: 'Prices' });
    await call('browser_open', { url: `${site.origin}/` }, context);
    const ambiguous = await rejection(call('browser_click', { text: 'More' }, context));
    expect(ambiguous.name).toBe('BrowserActionError');
    expect(ambiguous.message).toContain('2 elements on the page show "More"');
    const unknown = await rejection(call('browser_click', { ref: 'e9999' }, context));
    expect(unknown.message).toContain('the page has no element [e9999] now');
    expect(unknown.hint).toContain('browser_snapshot');
  });

  it('type into a form and submit it: the site receives the POST and the page shows its answer', async () => {
    const context = toolContext('run-form', fetch);
    const form = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/form` }, context);
    await call('browser_type', { ref: refOf(form.snapshot, 'textbox', 'Message'), text: 'Hello from Forge' }, context);
    const sent = await call<BrowserPageOutput>('browser_type', { ref: `[${refOf(form.snapshot, 'textbox', 'Name')}]`, text: 'Ada Lovelace', submit: true }, context);
    expect(sent).toMatchObject({ url: `${site.origin}/submit`, title: 'Sent' });
    expect(sent.snapshot).toContain('# Thanks, Ada Lovelace');
    const posts = site.requests.filter((request) => request.method === 'POST');
    expect(posts).toEqual([{ method: 'POST', path: '/submit', body: 'name=Ada+Lovelace&message=Hello+from+Forge' }]);
  });

  it('extract the main text, or the text of what a CSS selector matches', async () => {
    const context = toolContext('run-extract', fetch);
    await call('browser_open', { url: `${site.origin}/article` }, context);
    const main = await call<BrowserExtractOutput>('browser_extract', {}, context);
    expect(main).toMatchObject({ url: `${site.origin}/article`, title: 'Prices', selector: null, matches: 1, truncated: false });
    expect(main.text).toContain('All prices include tax.');
    expect(main.text).not.toContain('Navigation links');
    expect(main.text).not.toContain('Footer text');
    const cells = await call<BrowserExtractOutput>('browser_extract', { selector: 'table.prices td:first-child' }, context);
    expect(cells).toMatchObject({ matches: 2, text: 'Tea\n\nCake' });
    const invalid = await rejection(call('browser_extract', { selector: 'td[' }, context));
    expect(invalid.name).toBe('BrowserActionError');
  });

  it('cap the snapshot and the extract of a long page and say so', async () => {
    const context = toolContext('run-long', fetch);
    const page = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/long` }, context);
    expect(page.snapshot_truncated).toBe(true);
    expect(page.snapshot.length).toBeLessThanOrEqual(defaultBrowserLimits.snapshotChars + 200);
    expect(page.snapshot).toMatch(/\[snapshot cut: \d+ more lines; browser_extract with a CSS selector reads one part of the page\]$/);
    const text = await call<BrowserExtractOutput>('browser_extract', {}, context);
    expect(text).toMatchObject({ matches: 1, truncated: true });
    expect(text.text.startsWith('Item number 0\n\nItem number 1\n\n')).toBe(true);
    expect(text.text).toMatch(new RegExp(`\\[truncated by Forge: showing the first ${defaultBrowserLimits.extractChars} of \\d+ characters\\]$`));
  });

  it('keep cookies, and follow a redirect the guard followed to the final URL, fetching the final page once', async () => {
    const context = toolContext('run-cookies', fetch);
    await call('browser_open', { url: `${site.origin}/welcome` }, context);
    const account = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/old-account` }, context);
    expect(account).toMatchObject({ url: `${site.origin}/account`, title: 'Account', status: 200 });
    expect(account.snapshot).toContain('Signed in as ada with theme dark');
    expect(site.requests.map((request) => request.path)).toEqual(['/welcome', '/old-account', '/account']);
    const about = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/missing` }, context);
    expect(about).toMatchObject({ status: 404, title: 'Not found' });
    // Another run's browser has its own cookies.
    const stranger = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/account` }, toolContext('run-stranger', fetch));
    expect(stranger.snapshot).toContain('Signed in as nobody with theme none');
  });

  it('let nothing of a page reach a loopback port the guard does not allow: no request, no connection, no packet', async () => {
    const context = toolContext('run-leaky', fetch);
    const page = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/leaky` }, context);
    expect(page.blocked_requests).toBeGreaterThan(0);
    const status = await pool.withPage('test', context, async (_session, tab) => {
      await tab.locator('#status', { hasText: /^done/ }).waitFor();
      return tab.locator('#status').innerText();
    });
    expect(status).toBe('done: fetch refused, socket closed, worker refused');
    // The TURN relay's connection passes request interception: the browser's sink proxy took it, not the port.
    await expect.poll(() => pool.strayDestinations(), { timeout: 10_000 }).toContain(`127.0.0.1:${forbidden.port}`);
    expect(forbidden).toMatchObject({ connections: 0, requests: 0, packets: 0 });
  });

  it('refuse to navigate to a private address, naming the host and the setting that allows it', async () => {
    const context = toolContext('run-private', fetch);
    const direct = await rejection(call('browser_open', { url: `${forbidden.origin}/` }, context));
    expect(direct.name).toBe('NetworkBlockedError');
    expect(direct.message).toContain(`127.0.0.1:${forbidden.port}`);
    expect(direct.hint).toContain(`FORGE_ALLOW_HOSTS=127.0.0.1:${forbidden.port}`);
    const home = await call<BrowserOpenOutput>('browser_open', { url: `${site.origin}/` }, context);
    const clicked = await rejection(call('browser_click', { ref: refOf(home.snapshot, 'link', 'Internal dashboard') }, context));
    expect(clicked.name).toBe('NetworkBlockedError');
    expect(clicked.message).toContain(`${forbidden.origin}/secret`);
    const bounced = await rejection(call('browser_open', { url: `${site.origin}/bounce` }, context));
    expect(bounced.name).toBe('NetworkBlockedError');
    expect(bounced.message).toContain(`${forbidden.origin}/bounced`);
    const file = await rejection(call('browser_open', { url: 'file:///etc/passwd' }, context));
    expect(file.name).toBe('BrowserActionError');
    expect(file.message).toContain('file: URLs cannot be opened');
    expect(forbidden).toMatchObject({ connections: 0, requests: 0 });
  });

  it("keep runs apart: a run without a page is told to open one, not shown another run's", async () => {
    await call('browser_open', { url: `${site.origin}/about` }, toolContext('run-first', fetch));
    const other = await rejection(call('browser_snapshot', {}, toolContext('run-second', fetch)));
    expect(other.name).toBe('BrowserActionError');
    expect(other.message).toContain("no page is open in this run's browser");
    expect(other.hint).toContain('browser_open');
  });

  it("stop a page load when the run is cancelled, and close the run's context", async () => {
    const controller = new AbortController();
    const context = toolContext('run-cancelled', fetch, controller);
    const held = site.heldRequest('/slow');
    const opening = call('browser_open', { url: `${site.origin}/slow` }, context);
    const { closed } = await held;
    controller.abort('cancelled by the test');
    const cancelled = await rejection(opening);
    expect(cancelled.name).toBe('RunCancelledError');
    await closed;
    const after = await rejection(call('browser_snapshot', {}, toolContext('run-cancelled', fetch)));
    expect(after.message).toContain('no page is open');
  });
});

describe('browser lifetime', () => {
  it('refuse a run past the cap on contexts until an idle one closes', async () => {
    const limited = poolWith({ maxContexts: 1, idleMs: 300, queueWaitMs: 0 });
    const limitedTools = browserToolsOver(limited);
    const open = toolNamed(limitedTools, 'browser_open');
    try {
      const first = toolContext('run-idle', fetch);
      await open.execute({ url: `${site.origin}/about` }, first);
      const refused = await rejection(open.execute({ url: `${site.origin}/about` }, toolContext('run-waiting', fetch)));
      expect(refused.name).toBe('BrowserSessionLimitError');
      expect(refused.message).toMatch(/all 1 browser contexts are held by other runs\. Retry after 1 s\./);
      const tab = await limited.withPage('test', first, async (_session, page) => page);
      await new Promise((resolve) => tab.once('close', resolve));
      const later = (await open.execute({ url: `${site.origin}/about` }, toolContext('run-waiting', fetch))) as BrowserOpenOutput;
      expect(later.title).toBe('About');
    } finally {
      await limitedTools[0]?.close();
    }
  });

  it("cap one account's contexts, saying when to retry, while another account's run still gets one", async () => {
    const capped = poolWith({ maxContexts: 3, maxContextsPerAccount: 2, queueWaitMs: 0 });
    const open = toolNamed(browserToolsOver(capped), 'browser_open');
    const of = (account: string, runId: string) => ({ ...toolContext(runId, fetch), accountId: account });
    try {
      for (const runId of ['mallory-1', 'mallory-2']) await open.execute({ url: `${site.origin}/about` }, of('mallory', runId));
      const refused = await rejection(open.execute({ url: `${site.origin}/about` }, of('mallory', 'mallory-3')));
      expect(refused).toMatchObject({ name: 'BrowserSessionLimitError', limit: 'account', maxContexts: 2 });
      expect(refused.message).toMatch(/your account's runs hold 2 browser contexts.*Retry after \d+ s\./);
      expect((refused as BrowserSessionLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(((await open.execute({ url: `${site.origin}/about` }, of('bob', 'bob-1'))) as BrowserOpenOutput).title).toBe('About');
    } finally {
      await capped.close();
    }
  });

  it('queue runs fairly for a freed context: the waiting account holding the fewest first, then the longest waiting', async () => {
    const queued = poolWith({ maxContexts: 2, maxContextsPerAccount: 2, queueWaitMs: 60_000 });
    const open = toolNamed(browserToolsOver(queued), 'browser_open');
    const of = (account: string, runId: string) => ({ ...toolContext(runId, fetch), accountId: account });
    try {
      for (const runId of ['mallory-1', 'mallory-2']) await open.execute({ url: `${site.origin}/about` }, of('mallory', runId));
      const admitted: string[] = [];
      const waitFor = (account: string, runId: string) => (open.execute({ url: `${site.origin}/about` }, of(account, runId)) as Promise<BrowserOpenOutput>).then((page) => (admitted.push(runId), page));
      // Mallory asks first, Bob second; both wait: every context is held.
      const mallory = waitFor('mallory', 'mallory-3');
      const bob = waitFor('bob', 'bob-1');
      await queued.releaseRun('mallory-1');
      expect((await bob).title).toBe('About');
      expect(admitted).toEqual(['bob-1']);
      await queued.releaseRun('mallory-2');
      expect((await mallory).title).toBe('About');
      expect(admitted).toEqual(['bob-1', 'mallory-3']);
    } finally {
      await queued.close();
    }
  });

  it("close the browser with any of the tools: every run's page is gone, and the next open starts it again", async () => {
    const own = poolWith({});
    const ownTools = browserToolsOver(own);
    const context = toolContext('run-closing', fetch);
    try {
      await toolNamed(ownTools, 'browser_open').execute({ url: `${site.origin}/about` }, context);
      const tab = await own.withPage('test', context, async (_session, page) => page);
      const gone = new Promise((resolve) => tab.once('close', resolve));
      await toolNamed(ownTools, 'browser_extract').close();
      await gone;
      const after = await rejection(toolNamed(ownTools, 'browser_snapshot').execute({}, context));
      expect(after.message).toContain('no page is open');
      const again = (await toolNamed(ownTools, 'browser_open').execute({ url: `${site.origin}/about` }, context)) as BrowserOpenOutput;
      expect(again.title).toBe('About');
    } finally {
      await own.close();
    }
  });
});

describe('without a browser', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'forge-browser-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('every tool says the browser is unavailable and how to fix it', async () => {
    const missing = join(folder, 'no-such-chromium');
    const unavailable = createBrowserTools({ fetch, env: { FORGE_CHROMIUM_PATH: missing } });
    const context = toolContext('run-none', fetch);
    const inputs: Record<string, unknown> = { browser_open: { url: `${site.origin}/` }, browser_snapshot: {}, browser_click: { text: 'About' }, browser_type: { ref: 'e1', text: 'x' }, browser_extract: {} };
    for (const tool of unavailable) {
      const error = await rejection(tool.execute(tool.inputSchema.parse(inputs[tool.name]), context));
      expect(error.name).toBe('BrowserUnavailableError');
      expect(error.message).toContain(`FORGE_CHROMIUM_PATH is ${missing}, which is not an executable file`);
      expect(error.hint).toContain('apt-get install chromium');
      expect(error.hint).toContain('FORGE_CHROMIUM_PATH');
    }
    expect(site.requests).toEqual([]);
  });

  it('creating the tools starts nothing; the first open starts the browser, and one that fails to start is reported', async () => {
    const marker = join(folder, 'started');
    const fake = join(folder, 'fake-chromium');
    writeFileSync(fake, `#!/bin/sh\necho started > '${marker}'\nexit 1\n`);
    chmodSync(fake, 0o755);
    const made = createBrowserTools({ fetch, env: { FORGE_CHROMIUM_PATH: fake } });
    const context = toolContext('run-fake', fetch);
    const snapshot = await rejection(toolNamed(made, 'browser_snapshot').execute({}, context));
    expect(snapshot.name).toBe('BrowserActionError');
    expect(existsSync(marker)).toBe(false);
    const open = await rejection(toolNamed(made, 'browser_open').execute({ url: `${site.origin}/` }, context));
    expect(existsSync(marker)).toBe(true);
    expect(open.name).toBe('BrowserUnavailableError');
    expect(open.message).toContain(`${fake} did not start`);
  });
});
