/** The bounds of the browser tools; `defaultBrowserLimits` unless a caller (a test) sets some. */
export interface BrowserLimits {
  /** Runs that may hold a browser context at once; one more waits in the queue (see `queueWaitMs`). */
  readonly maxContexts: number;
  /**
   * Contexts the runs of one account may hold at once, so no account takes every one; the operator's
   * runs (the CLI, a server without accounts) are not counted per account.
   */
  readonly maxContextsPerAccount: number;
  /**
   * How long a run waits for a context when none is free to it: waiting runs get freed contexts fairly
   * (the account holding the fewest first, then the longest waiting), and one still waiting after this
   * is refused with `BrowserSessionLimitError`, which says when to retry. 0: refuse at once.
   */
  readonly queueWaitMs: number;
  /** A run's context is closed after this long without a browser call (and the browser with the last one). */
  readonly idleMs: number;
  /** Requests one run's browser may send through the guard; past it, requests fail (a page polling for ever stops costing). */
  readonly maxRequestsPerRun: number;
  /** Pages (tabs and popups) open at once in one run; a page opened past it is closed at once. */
  readonly maxPagesPerRun: number;
  /** How long `browser_open` waits for the page's document. */
  readonly navigationTimeoutMs: number;
  /** How long a click, a fill or a snapshot waits for the element and the page. */
  readonly actionTimeoutMs: number;
  /** After an action, how long to wait for the page's `load` before describing it as it is. */
  readonly settleMs: number;
  /** Characters of a snapshot a tool returns. */
  readonly snapshotChars: number;
  /** Characters of extracted text a tool returns. */
  readonly extractChars: number;
}

export const defaultBrowserLimits: BrowserLimits = {
  maxContexts: 4,
  maxContextsPerAccount: 2,
  queueWaitMs: 15_000,
  idleMs: 5 * 60_000,
  maxRequestsPerRun: 2_000,
  maxPagesPerRun: 8,
  navigationTimeoutMs: 30_000,
  actionTimeoutMs: 10_000,
  settleMs: 5_000,
  // The dispatch shows a model about 12,000 characters of a result; these leave room for the rest of it.
  snapshotChars: 8_000,
  extractChars: 8_000,
};
