import type { AnyTool, GuardedFetch } from '../../core/index.js';
import { defaultBrowserLimits } from './browser-limits.js';
import { BrowserPool } from './browser-pool.js';
import { browserToolsOver } from './browser-tools.js';
import type { ClosableTool, RunResourceHolder } from '../../core/index.js';

export { BrowserActionError, BrowserSessionLimitError, BrowserUnavailableError } from './browser-errors.js';
export type { BrowserExtractOutput } from './extract-tool.js';
export type { BrowserOpenOutput } from './open-tool.js';
export type { BrowserPageOutput } from './page-view.js';

export interface BrowserToolOptions {
  /** The SSRF-guarded fetch: every request of every page is made with it. */
  readonly fetch: GuardedFetch;
  /** Read for FORGE_CHROMIUM_PATH when the browser is first needed. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The browser tools: `browser_open`, `browser_snapshot`, `browser_click`, `browser_type` and
 * `browser_extract`, over one headless Chromium shared by the runtime (see `BrowserPool`). Creating them
 * launches nothing; without a browser every call fails with `BrowserUnavailableError`. Each tool is a
 * `ClosableTool`: closing any of them closes the browser (the runtime must, or the browser outlives it
 * until it has been idle for `idleMs`).
 */
export function createBrowserTools(options: BrowserToolOptions): (AnyTool & ClosableTool & RunResourceHolder)[] {
  return browserToolsOver(new BrowserPool({ env: options.env, fetch: options.fetch, limits: defaultBrowserLimits }));
}
