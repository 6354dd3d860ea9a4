import type { Browser, Page } from 'playwright-core';
import { ForgeError, RunCancelledError, ToolExecutionError, type GuardedFetch, type ToolContext } from '../../core/index.js';
import { BrowserActionError, BrowserSessionLimitError, BrowserUnavailableError } from './browser-errors.js';
import type { BrowserLimits } from './browser-limits.js';
import { BrowserSession } from './browser-session.js';
import { findChromium } from './chromium-executable.js';
import { startSinkProxy, type SinkProxy } from './sink-proxy.js';

export interface BrowserPoolOptions {
  /** FORGE_CHROMIUM_PATH is read here, when the browser is first needed. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The SSRF-guarded fetch every request of every page goes through. */
  readonly fetch: GuardedFetch;
  readonly limits: BrowserLimits;
}

interface LaunchedBrowser {
  readonly browser: Browser;
  readonly sink: SinkProxy;
}

/** A run's context, opening or open, and the account it counts against (none for the operator's runs). */
interface HeldSession {
  readonly pending: Promise<BrowserSession>;
  readonly account: string | undefined;
  session?: BrowserSession;
}

/** A run waiting in the queue for a context. */
interface Waiter {
  readonly runId: string;
  readonly account: string | undefined;
  readonly admit: (held: HeldSession) => void;
  readonly refuse: (error: Error) => void;
}

/** What the browser process inherits of this process's environment: enough to run, none of Forge's keys. */
const INHERITED_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'FONTCONFIG_PATH', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME'];

/**
 * The runtime's one headless browser and the runs' contexts in it. Nothing is launched until a tool
 * first needs a page; each run (by `runId`) gets its own context, closed when the run ends
 * (`releaseRun`), when its signal aborts, or after `idleMs` without a call; the browser closes `idleMs`
 * after its last context, and with `close`. At most `maxContexts` are held at once, at most
 * `maxContextsPerAccount` by one account's runs; a run with no context free to it waits in a fair queue
 * (a freed context goes to the waiting account holding the fewest, then to the longest waiting run) for
 * up to `queueWaitMs`, then is refused with `BrowserSessionLimitError` saying when to retry.
 */
export class BrowserPool {
  private launched: Promise<LaunchedBrowser> | undefined;
  private readonly sessions = new Map<string, HeldSession>();
  /** Runs admitted from the queue or still waiting in it, so a run's further calls share its place. */
  private readonly entering = new Map<string, Promise<HeldSession>>();
  private readonly queue: Waiter[] = [];
  /** Closes the browser once it has had no context for `idleMs` (runs come and go; a launch costs a second or two). */
  private browserIdleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: BrowserPoolOptions) {}

  get limits(): BrowserLimits {
    return this.options.limits;
  }

  /** Runs `action` in the run's session, opening the browser and the run's context when it has none. */
  async withSession<Result>(toolName: string, context: ToolContext, action: (session: BrowserSession) => Promise<Result>): Promise<Result> {
    refuseIfCancelled(toolName, context.signal);
    const held = this.sessions.get(context.runId) ?? (await (this.entering.get(context.runId) ?? this.enter(toolName, context)));
    return this.run(toolName, context, held.pending, action);
  }

  /** Closes the run's context (its run ended, paused or failed): the context goes to the next run waiting for one. */
  releaseRun(runId: string): Promise<void> {
    return this.closeSession(runId);
  }

  /**
   * Runs `action` on the run's current page. Refuses without launching anything when the run has none
   * open: with `BrowserUnavailableError` when there is no browser to open one with.
   */
  async withPage<Result>(toolName: string, context: ToolContext, action: (session: BrowserSession, page: Page) => Promise<Result>): Promise<Result> {
    refuseIfCancelled(toolName, context.signal);
    const pending = this.sessions.get(context.runId)?.pending;
    const noPage = () =>
      new BrowserActionError(
        toolName,
        "no page is open in this run's browser (none was opened, or it closed after a while unused).",
        'Open the page with browser_open first.',
      );
    if (pending === undefined) {
      // Without a browser to open a page with, that is what the caller must hear.
      findChromium(this.options.env);
      throw noPage();
    }
    return this.run(toolName, context, pending, async (session) => {
      const page = session.page;
      if (page === undefined) throw noPage();
      return action(session, page);
    });
  }

  /** Where the browser tried to connect outside request interception (each connection dropped by its sink proxy). */
  async strayDestinations(): Promise<readonly string[]> {
    const launched = await this.launched?.catch(() => undefined);
    return launched?.sink.destinations() ?? [];
  }

  /** Closes every run's context and the browser. The pool stays usable: the next call launches again. */
  async close(): Promise<void> {
    for (const waiter of [...this.queue]) waiter.refuse(new BrowserActionError('browser_open', 'the browser was closed while this run waited for it.', 'Try again: the next call starts it again.'));
    const runIds = [...this.sessions.keys()];
    await Promise.all(runIds.map((runId) => this.closeSession(runId)));
    await this.closeBrowser();
  }

  private async run<Result>(toolName: string, context: ToolContext, pending: Promise<BrowserSession>, action: (session: BrowserSession) => Promise<Result>): Promise<Result> {
    const session = await pending;
    const close = () => void this.closeSession(context.runId, pending);
    session.watch(context.signal, close);
    session.begin();
    try {
      return await action(session);
    } catch (error) {
      refuseIfCancelled(toolName, context.signal);
      throw asToolError(toolName, error);
    } finally {
      session.end(close);
    }
  }

  /** A context for the run: at once when one is free to its account, else after waiting its turn in the queue. */
  private enter(toolName: string, context: ToolContext): Promise<HeldSession> {
    const { runId, accountId: account } = context;
    if (this.hasRoom(account)) return Promise.resolve(this.open(runId, account));
    const { queueWaitMs } = this.options.limits;
    if (queueWaitMs <= 0) return Promise.reject(this.busy(account));
    const entering = new Promise<HeldSession>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        context.signal.removeEventListener('abort', cancelled);
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
      };
      const waiter: Waiter = {
        runId,
        account,
        admit: (held) => {
          leave();
          resolve(held);
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.refuse(this.busy(account)), queueWaitMs);
      const cancelled = () => waiter.refuse(new RunCancelledError(`${toolName} was stopped while it waited for the browser`));
      context.signal.addEventListener('abort', cancelled, { once: true });
      this.queue.push(waiter);
    });
    this.entering.set(runId, entering);
    const forget = () => {
      if (this.entering.get(runId) === entering) this.entering.delete(runId);
    };
    entering.then(forget, forget);
    return entering;
  }

  /** Whether a context is free to a run of `account`: one is free in all, and the account holds fewer than it may. */
  private hasRoom(account: string | undefined): boolean {
    const { maxContexts, maxContextsPerAccount } = this.options.limits;
    return this.sessions.size < maxContexts && (account === undefined || this.heldBy(account) < maxContextsPerAccount);
  }

  private heldBy(account: string | undefined): number {
    let held = 0;
    for (const session of this.sessions.values()) if (session.account === account) held += 1;
    return held;
  }

  /** Why a run of `account` gets no context now, and when one is expected free at the latest: the soonest idle close among those it waits on. */
  private busy(account: string | undefined): BrowserSessionLimitError {
    const { maxContexts, maxContextsPerAccount, idleMs } = this.options.limits;
    const accountFull = account !== undefined && this.heldBy(account) >= maxContextsPerAccount;
    const now = Date.now();
    const deadlines = [...this.sessions.values()].filter((held) => !accountFull || held.account === account).map((held) => held.session?.idleDeadline(now) ?? now + idleMs);
    const seconds = Math.max(1, Math.ceil((Math.min(now + idleMs, ...deadlines) - now) / 1000));
    return accountFull ? new BrowserSessionLimitError('account', maxContextsPerAccount, seconds) : new BrowserSessionLimitError('installation', maxContexts, seconds);
  }

  /** Opens a context for the run and counts it against its account. */
  private open(runId: string, account: string | undefined): HeldSession {
    const pending = (async () => {
      const { browser } = await this.browser();
      return BrowserSession.open(browser, this.options.fetch, this.options.limits);
    })();
    const held: HeldSession = { pending, account };
    this.sessions.set(runId, held);
    pending.then(
      (session) => {
        held.session = session;
      },
      () => {
        if (this.sessions.get(runId) === held) this.sessions.delete(runId);
        this.admitWaiting();
      },
    );
    return held;
  }

  /** Gives free contexts to waiting runs: the account holding the fewest first, then the run waiting longest. */
  private admitWaiting(): void {
    for (;;) {
      let chosen: Waiter | undefined;
      for (const waiter of this.queue) {
        if (this.hasRoom(waiter.account) && (chosen === undefined || this.heldBy(waiter.account) < this.heldBy(chosen.account))) chosen = waiter;
      }
      if (chosen === undefined) return;
      chosen.admit(this.open(chosen.runId, chosen.account));
    }
  }

  /** Closes the run's session, when it is still `pending` (a late timer of a closed one leaves the run's next session alone). */
  private async closeSession(runId: string, pending = this.sessions.get(runId)?.pending): Promise<void> {
    const held = this.sessions.get(runId);
    if (pending === undefined || held?.pending !== pending) return;
    this.sessions.delete(runId);
    this.admitWaiting();
    const session = await pending.catch(() => undefined);
    await session?.close();
    if (this.sessions.size === 0 && this.browserIdleTimer === undefined) {
      this.browserIdleTimer = setTimeout(() => {
        this.browserIdleTimer = undefined;
        if (this.sessions.size === 0) void this.closeBrowser();
      }, this.options.limits.idleMs);
      this.browserIdleTimer.unref();
    }
  }

  private browser(): Promise<LaunchedBrowser> {
    clearTimeout(this.browserIdleTimer);
    this.browserIdleTimer = undefined;
    if (this.launched === undefined) {
      const launching = this.launch();
      this.launched = launching;
      // A failed launch is not kept: a browser installed since, or FORGE_CHROMIUM_PATH fixed, is tried on the next call.
      launching.catch(() => {
        if (this.launched === launching) this.launched = undefined;
      });
    }
    return this.launched;
  }

  private async launch(): Promise<LaunchedBrowser> {
    const executablePath = findChromium(this.options.env);
    const { chromium } = await import('playwright-core');
    const sink = await startSinkProxy();
    try {
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        // Chromium's sandbox cannot start as root; everywhere else it stays on.
        chromiumSandbox: process.getuid?.() !== 0,
        args: [
          `--proxy-server=${sink.url}`,
          // Loopback too: by default Chromium would bypass the proxy for it.
          '--proxy-bypass-list=<-loopback>',
          // WebRTC sends no UDP of its own (STUN to any address); what it sends over TCP meets the sink proxy.
          '--webrtc-ip-handling-policy=disable_non_proxied_udp',
          '--disable-quic',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-extensions',
        ],
        env: inheritedEnvironment(),
        // Forge handles its own signals (a first Ctrl-C stops a run gracefully); the browser ends with the process.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
      browser.on('disconnected', () => this.forgetBrowser(browser));
      return { browser, sink };
    } catch (error) {
      await sink.close();
      throw new BrowserUnavailableError(`${executablePath} did not start: ${firstLine(error)}`, [executablePath], error);
    }
  }

  private async closeBrowser(): Promise<void> {
    clearTimeout(this.browserIdleTimer);
    this.browserIdleTimer = undefined;
    const launching = this.launched;
    this.launched = undefined;
    const launched = await launching?.catch(() => undefined);
    if (launched === undefined) return;
    await launched.browser.close().catch(() => undefined);
    await launched.sink.close();
  }

  /** A browser that went away (crashed, killed) takes its contexts with it: the next call starts afresh. */
  private forgetBrowser(browser: Browser): void {
    void (async () => {
      const launched = await this.launched?.catch(() => undefined);
      if (launched?.browser !== browser) return;
      this.launched = undefined;
      const sessions = [...this.sessions.values()];
      this.sessions.clear();
      this.admitWaiting();
      await Promise.all(sessions.map(async ({ pending }) => (await pending.catch(() => undefined))?.close()));
      await launched.sink.close();
    })();
  }
}

function refuseIfCancelled(toolName: string, signal: AbortSignal): void {
  if (signal.aborted) throw new RunCancelledError(`${toolName} was stopped`);
}

function inheritedEnvironment(): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) inherited[name] = value;
  }
  return inherited;
}

/** A failure as a tool error: Forge's own errors as they are, Playwright's cut to their first line (the rest is its call log). */
function asToolError(toolName: string, error: unknown): ForgeError {
  if (ForgeError.isInstance(error)) return error;
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new BrowserActionError(toolName, firstLine(error), 'The page did not get there in time; take a browser_snapshot to see it as it is now.', error);
  }
  return new ToolExecutionError(toolName, firstLine(error), error);
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0] ?? message;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
