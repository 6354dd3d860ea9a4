import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { capToolOutput } from '../index.js';
import { BrowserActionError } from './browser-errors.js';
import type { BrowserPool } from './browser-pool.js';
import { settle } from './page-view.js';

/** What `browser_extract` returns. */
export interface BrowserExtractOutput {
  readonly url: string;
  readonly title: string;
  /** The selector given, or null for the page's main text. */
  readonly selector: string | null;
  /** Elements the selector matched (1 for the main text). */
  readonly matches: number;
  /** Their text as the page renders it, one element after another; cut at the cap with a note saying so. */
  readonly text: string;
  readonly truncated: boolean;
}

/** Where a page's main text is, first match wins; the whole body otherwise. */
const MAIN_CONTENT = 'main, [role="main"], article';

/** `browser_extract({selector?})`: the rendered text of the current page's main content, or of what a CSS selector matches. */
export function createExtractTool(pool: BrowserPool) {
  return defineTool({
    name: 'browser_extract',
    description:
      "Get the text of the current browser page as it is rendered (after JavaScript): its main content, or the text of every element a CSS selector matches (e.g. \"table.prices\", \"#results li\").",
    inputSchema: z.object({
      selector: z.string().trim().min(1).max(1_000).optional().describe('A CSS selector; leave it out for the main content.'),
    }),
    risk: 'medium',
    sideEffect: 'read',
    external: true,
    execute: (input, context): Promise<BrowserExtractOutput> =>
      pool.withPage('browser_extract', context, async (session, page) => {
        await settle(session, page, pool.limits);
        const main = page.locator(`css=${MAIN_CONTENT}`).first();
        const elements = input.selector !== undefined ? page.locator(`css=${input.selector}`) : (await main.count()) > 0 ? main : page.locator('css=body');
        let texts: string[];
        try {
          texts = await elements.allInnerTexts();
        } catch (error) {
          if (input.selector === undefined) throw error;
          throw new BrowserActionError('browser_extract', `"${input.selector}" is not a CSS selector the page accepts.`, 'Give a plain CSS selector, e.g. "main h2" or "#results li".', error);
        }
        const text = capToolOutput(texts.map((part) => part.trim()).filter((part) => part !== '').join('\n\n'), pool.limits.extractChars);
        return { url: page.url(), title: await page.title(), selector: input.selector ?? null, matches: texts.length, text: text.text, truncated: text.truncated };
      }),
  });
}
