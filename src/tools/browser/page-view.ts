import type { Page } from 'playwright-core';
import type { BrowserLimits } from './browser-limits.js';
import type { BrowserSession } from './browser-session.js';
import { renderSnapshot } from './page-snapshot.js';

/**
 * What the page tools return: where the page is, what it shows (see `renderSnapshot`), and how many of
 * this call's requests the guard refused or that failed (an image or script of a host not allowed).
 * Refs in `snapshot` are what browser_click and browser_type take.
 */
export interface BrowserPageOutput {
  readonly url: string;
  readonly title: string;
  readonly snapshot: string;
  /** True when the snapshot was cut at the cap; browser_extract reads a part of the page whole. */
  readonly snapshot_truncated: boolean;
  readonly blocked_requests: number;
}

/** The page as it is now, once settled (see `settle`). */
export async function describePage(session: BrowserSession, page: Page, limits: BrowserLimits): Promise<BrowserPageOutput> {
  await settle(session, page, limits);
  const snapshot = renderSnapshot(await page.ariaSnapshotJSON({ mode: 'ai' }), page.url(), limits.snapshotChars);
  return {
    url: page.url(),
    title: await page.title(),
    snapshot: snapshot.text,
    snapshot_truncated: snapshot.truncated,
    blocked_requests: session.traffic.blockedRequests,
  };
}

/**
 * Waits for the page's `load` for at most `settleMs` (a page still loading an image is described as it
 * is), past the page that moves a redirected navigation on, then throws the guard's refusal of this
 * call's main-frame navigation, if there was one.
 */
export async function settle(session: BrowserSession, page: Page, limits: BrowserLimits): Promise<void> {
  const { traffic } = session;
  const settled = traffic.isRedirectPage(page.url())
    ? page.waitForURL((url) => !traffic.isRedirectPage(url.href), { waitUntil: 'load', timeout: limits.settleMs })
    : page.waitForLoadState('load', { timeout: limits.settleMs });
  await settled.catch(() => undefined);
  const failure = traffic.failedNavigation;
  if (failure !== undefined) throw failure;
}
