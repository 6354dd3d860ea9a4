import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { BrowserActionError } from './browser-errors.js';
import type { BrowserPool } from './browser-pool.js';
import { describePage, type BrowserPageOutput } from './page-view.js';

/** What `browser_open` returns: the page (see `BrowserPageOutput`) and the HTTP status of its document. */
export interface BrowserOpenOutput extends BrowserPageOutput {
  /** The HTTP status the page's document was answered with, after redirects; null when it had none (a link to a part of the same page). */
  readonly status: number | null;
}

/** `browser_open({url})`: loads a page in the run's browser, every request of it through the SSRF guard. */
export function createOpenTool(pool: BrowserPool) {
  return defineTool({
    name: 'browser_open',
    description:
      "Open a web page in a headless browser (JavaScript runs) and get it as compact text: headings, text, and every link, button and input with a ref like [e12] for browser_click and browser_type. Use read_url instead for pages that need no interaction.",
    inputSchema: z.object({
      url: z.string().trim().min(1).describe('The absolute http(s) URL to open.'),
    }),
    risk: 'medium',
    sideEffect: 'read',
    external: true,
    execute: async (input, context): Promise<BrowserOpenOutput> => {
      const url = httpUrl(input.url);
      return pool.withSession('browser_open', context, async (session) => {
        const page = await session.pageToOpen();
        // A navigation the guard refused ends on a page saying so; describing the page then throws the refusal.
        await page.goto(url, { waitUntil: 'domcontentloaded' });
        const view = await describePage(session, page, pool.limits);
        return { ...view, status: session.traffic.mainDocumentStatus ?? null };
      });
    },
  });
}

/** The URL, when it is http or https: anything else (file:, data:, javascript:) is never handed to the browser. */
function httpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BrowserActionError('browser_open', `"${text.slice(0, 200)}" is not an absolute URL.`, 'Give a full URL such as https://example.com/page.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BrowserActionError('browser_open', `${url.protocol} URLs cannot be opened; only http and https.`, 'Give an http:// or https:// URL.');
  }
  return url.href;
}
