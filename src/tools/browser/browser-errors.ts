import { ForgeError } from '../../core/index.js';

const installHint = 'Install Chromium (Debian and Ubuntu: apt-get install chromium) or set FORGE_CHROMIUM_PATH to a Chromium or Chrome executable.';

/** No browser can be started: none is installed where Forge looks, or the one found does not start. */
export class BrowserUnavailableError extends ForgeError {
  /** The executables looked for, in order (FORGE_CHROMIUM_PATH alone when it is set). */
  readonly tried: readonly string[];
  constructor(reason: string, tried: readonly string[], cause?: unknown) {
    super({ name: 'BrowserUnavailableError', message: `The browser tools are unavailable: ${reason}`, hint: installHint, cause });
    this.tried = tried;
  }
}

/**
 * The browser is busy for this run: every context the runtime allows is held by other runs
 * (`installation`), or the runs of the run's account hold as many as one account may (`account`), and
 * none came free while the run waited in the queue.
 */
export class BrowserSessionLimitError extends ForgeError {
  readonly limit: 'installation' | 'account';
  /** The most contexts held at once: in all, or per account. */
  readonly maxContexts: number;
  /** When a context is expected to come free at the latest (the soonest idle close), in seconds; a run that ends frees its context at once. */
  readonly retryAfterSeconds: number;
  constructor(limit: 'installation' | 'account', maxContexts: number, retryAfterSeconds: number) {
    super({
      name: 'BrowserSessionLimitError',
      message:
        limit === 'account'
          ? `The browser is busy: your account's runs hold ${maxContexts} browser contexts, the most one account may hold at once. Retry after ${retryAfterSeconds} s.`
          : `The browser is busy: all ${maxContexts} browser contexts are held by other runs. Retry after ${retryAfterSeconds} s.`,
      hint: `Retry after ${retryAfterSeconds} s, or sooner once one of those runs ends: a run's browser context closes when the run ends (completed, failed, cancelled or paused for an approval) and after a while without a browser call.`,
    });
    this.limit = limit;
    this.maxContexts = maxContexts;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A browser call that could not be done on the page as it is (no page open, an unknown ref, a text matching nothing). */
export class BrowserActionError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string, message: string, hint: string, cause?: unknown) {
    super({ name: 'BrowserActionError', message: `${toolName}: ${message}`, hint, cause });
    this.toolName = toolName;
  }
}
