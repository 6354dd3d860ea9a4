import type { BrowserContext, Request, Route } from 'playwright-core';
import { ForgeError, NetworkError, type GuardedFetch, type GuardedResponse } from '../../core/index.js';

/** Headers of the guard's response that describe its message framing, which the browser redoes for the fulfilled body. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);
/** Redirected navigations remembered at once (their final responses held for the browser's follow-up request). */
const maxHeldRedirects = 16;

/**
 * One run's browser traffic, all of it through the SSRF guard: every request the browser context makes
 * is fetched by the guarded fetch and fulfilled with its response, so the browser itself never opens a
 * connection; WebSockets are refused. A refusal or failure of a main-frame navigation is kept for the
 * tool that caused it to report.
 */
export class GuardedTraffic {
  private requests = 0;
  private blocked = 0;
  private navigationFailure: ForgeError | undefined;
  private readonly heldRedirects = new Map<string, GuardedResponse>();
  /** URLs whose navigation was answered with `redirectPage`. */
  private readonly redirectPages = new Set<string>();
  private documentStatus: number | undefined;

  constructor(
    private readonly fetch: GuardedFetch,
    /** Aborted when the run's context closes: requests still in flight end with it. */
    private readonly signal: AbortSignal,
    private readonly maxRequests: number,
  ) {}

  /** Routes every request and WebSocket of `context` through this traffic. */
  async attach(context: BrowserContext): Promise<void> {
    await context.routeWebSocket(() => true, (socket) => socket.close({ code: 1008, reason: 'Forge does not let the browser open WebSockets.' }));
    await context.route('**/*', (route, request) => this.fulfil(route, request));
  }

  /** Starts counting for one tool call: forgets the previous call's navigation, its failure and its blocked requests. */
  beginAction(): void {
    this.navigationFailure = undefined;
    this.documentStatus = undefined;
    this.blocked = 0;
  }

  /** Requests the guard refused or that failed, since the last `beginAction`. */
  get blockedRequests(): number {
    return this.blocked;
  }

  /** Why the latest main-frame navigation was refused or failed, if it was. */
  get failedNavigation(): ForgeError | undefined {
    return this.navigationFailure;
  }

  /** The HTTP status of the latest main-frame document (after the guard's redirects). */
  get mainDocumentStatus(): number | undefined {
    return this.documentStatus;
  }

  /** True while a frame showing `url` is only being moved on to where the guard's redirects ended. */
  isRedirectPage(url: string): boolean {
    return this.redirectPages.has(url);
  }

  private async fulfil(route: Route, request: Request): Promise<void> {
    let answer: Fulfilment;
    try {
      answer = await this.answer(request);
    } catch (error) {
      if (this.signal.aborted) return;
      const failure = ForgeError.isInstance(error) ? error : new NetworkError(request.url(), String(error), error);
      this.blocked += 1;
      if (!isMainFrameNavigation(request)) {
        await route.abort(failure.name === 'NetworkBlockedError' ? 'blockedbyclient' : 'failed').catch(() => undefined);
        return;
      }
      // The page is given a document saying why, rather than the browser's error page, so its navigation
      // ends like any other before the tool reports the failure.
      this.navigationFailure = failure;
      answer = failurePage(failure);
    }
    // The route may be gone with its page by now; there is nothing left to answer then.
    await route.fulfill(answer).catch(() => undefined);
  }

  private async answer(request: Request): Promise<Fulfilment> {
    const url = request.url();
    const held = this.heldRedirects.get(url);
    if (held !== undefined) {
      this.heldRedirects.delete(url);
      return this.served(request, held);
    }
    this.requests += 1;
    if (this.requests > this.maxRequests) {
      throw new NetworkError(url, `this run's browser has made ${this.maxRequests} requests, the most one run may`, undefined, 'Read the page with read_url instead, or start a new run.');
    }
    const response = await this.fetch(url, { method: request.method(), headers: await request.allHeaders(), ...bodyOf(request), signal: this.signal });
    if (response.redirects.length === 0 || !request.isNavigationRequest()) return this.served(request, response);
    // The guard followed (and vetted) the redirects itself. A navigation must still end up at the final URL,
    // so the page knows its origin, but a fulfilled 3xx would send the browser's next request past this
    // route, straight to the network. So the frame is given a page that moves it on to the final URL, and
    // its request for that URL gets the response already fetched.
    this.holdRedirect(url, response);
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: Buffer.from(redirectPage(response.url)) };
  }

  private served(request: Request, response: GuardedResponse): Fulfilment {
    if (isMainFrameNavigation(request)) this.documentStatus = response.status;
    return fulfilment(response);
  }

  private holdRedirect(from: string, response: GuardedResponse): void {
    this.heldRedirects.set(response.url, response);
    this.redirectPages.add(from);
    dropOldest(this.heldRedirects);
    dropOldest(this.redirectPages);
  }
}

/** Keeps the newest `maxHeldRedirects` entries: a page that never follows its redirects cannot grow them. */
function dropOldest(entries: Set<string> | Map<string, unknown>): void {
  for (const key of [...entries.keys()].slice(0, Math.max(0, entries.size - maxHeldRedirects))) entries.delete(key);
}

/** The document a refused or failed navigation shows: 403 for the guard's refusal, 502 for a failure to fetch. */
function failurePage(failure: ForgeError): Fulfilment {
  const text = escapeHtml(failure.message);
  return {
    status: failure.name === 'NetworkBlockedError' ? 403 : 502,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(`<!doctype html><meta charset="utf-8"><title>Not loaded</title><h1>Forge did not load this page</h1><p>${text}</p>`),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A page that replaces itself with `url` at once (the URL is the guard's, already vetted; it is escaped for a script). */
function redirectPage(url: string): string {
  return `<!doctype html><meta charset="utf-8"><script>location.replace(${JSON.stringify(url).replace(/</g, '\\u003c')})</script>`;
}

function bodyOf(request: Request): { body?: string } {
  const body = request.postData();
  return body === null ? {} : { body };
}

interface Fulfilment {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

function fulfilment(response: GuardedResponse): Fulfilment {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (FRAMING_HEADERS.has(name)) continue;
    // The guard joins repeated headers with commas; Playwright takes several cookies one a line.
    headers[name] = name === 'set-cookie' ? value.split(/,\s*(?=[^;,=\s]+=)/).join('\n') : value;
  }
  return { status: response.status, headers, body: Buffer.from(response.body) };
}

function isMainFrameNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    // A service worker's request has no frame.
    return false;
  }
}
