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

/** Every browser context the runtime allows is held by another run. */
export class BrowserSessionLimitError extends ForgeError {
  readonly maxContexts: number;
  constructor(maxContexts: number, idleMs: number) {
    super({
      name: 'BrowserSessionLimitError',
      message: `The browser is in use by ${maxContexts} other runs, the most it holds at once.`,
      hint: `Try again once one of them ends; a run's browser closes when the run is cancelled or after ${Math.round(idleMs / 1000)} s without a browser call.`,
    });
    this.maxContexts = maxContexts;
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
