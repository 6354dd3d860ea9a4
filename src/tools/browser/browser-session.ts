import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { GuardedFetch } from '../../core/index.js';
import type { BrowserLimits } from './browser-limits.js';
import { GuardedTraffic } from './guarded-traffic.js';

/**
 * One run's browser context: its own cookies and storage, its traffic through the guard, its pages.
 * Calls act on the newest page still open, so a link that opens a popup is followed into it.
 */
export class BrowserSession {
  private readonly pages: Page[] = [];
  private readonly watchedSignals = new WeakSet<AbortSignal>();
  private readonly unwatch: (() => void)[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  /** When the last call ended, while none runs; undefined while one runs (or before the first). */
  private idleSince: number | undefined;
  private busy = 0;
  private closed = false;

  private constructor(
    readonly context: BrowserContext,
    readonly traffic: GuardedTraffic,
    private readonly lifetime: AbortController,
    private readonly limits: BrowserLimits,
  ) {
    context.on('page', (page) => this.adopt(page));
  }

  /** Opens a context on `browser` with downloads and service workers off and every request routed through `fetch`. */
  static async open(browser: Browser, fetch: GuardedFetch, limits: BrowserLimits): Promise<BrowserSession> {
    const context = await browser.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
    context.setDefaultTimeout(limits.actionTimeoutMs);
    context.setDefaultNavigationTimeout(limits.navigationTimeoutMs);
    const lifetime = new AbortController();
    const traffic = new GuardedTraffic(fetch, lifetime.signal, limits.maxRequestsPerRun);
    try {
      await traffic.attach(context);
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
    return new BrowserSession(context, traffic, lifetime, limits);
  }

  /** The page calls act on: the newest one still open; undefined before the first `browser_open`. */
  get page(): Page | undefined {
    return this.pages.at(-1);
  }

  /** The current page, or a new blank one. */
  async pageToOpen(): Promise<Page> {
    return this.page ?? (await this.context.newPage());
  }

  /** Calls `onAbort` once when `signal` aborts, for as long as the session is open. */
  watch(signal: AbortSignal, onAbort: () => void): void {
    if (this.watchedSignals.has(signal)) return;
    this.watchedSignals.add(signal);
    signal.addEventListener('abort', onAbort, { once: true });
    this.unwatch.push(() => signal.removeEventListener('abort', onAbort));
  }

  /** Marks a call as started: the idle timer waits until no call is running. */
  begin(): void {
    this.busy += 1;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.idleSince = undefined;
    this.traffic.beginAction();
  }

  /** Marks a call as ended; once none runs, `onIdle` is called after the idle time unless another call begins. */
  end(onIdle: () => void): void {
    this.busy -= 1;
    if (this.busy > 0 || this.closed) return;
    this.idleSince = Date.now();
    this.idleTimer = setTimeout(onIdle, this.limits.idleMs);
    this.idleTimer.unref();
  }

  /** When the idle timer would close the session at the latest, counting a running call as just begun (ms since the epoch). */
  idleDeadline(now: number): number {
    return (this.idleSince ?? now) + this.limits.idleMs;
  }

  /** Ends the session's requests still in flight and closes its context with its pages. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const unwatch of this.unwatch.splice(0)) unwatch();
    this.lifetime.abort();
    await this.context.close().catch(() => undefined);
  }

  private adopt(page: Page): void {
    if (this.pages.length >= this.limits.maxPagesPerRun) {
      void page.close().catch(() => undefined);
      return;
    }
    this.pages.push(page);
    page.on('close', () => {
      const index = this.pages.indexOf(page);
      if (index >= 0) this.pages.splice(index, 1);
    });
  }
}
