import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import type { BrowserPool } from './browser-pool.js';
import { REF_PATTERN, elementByRef } from './page-elements.js';
import { describePage, type BrowserPageOutput } from './page-view.js';

/** `browser_type({ref, text, submit?})`: fills an input of the current page, optionally pressing Enter after. */
export function createTypeTool(pool: BrowserPool) {
  return defineTool({
    name: 'browser_type',
    description:
      'Type text into an input, text area or other editable element of the current browser page (its previous content is replaced), named by its ref from the latest snapshot. With submit: true, presses Enter afterwards, which usually submits its form. Returns the page after it.',
    inputSchema: z.object({
      ref: z.string().trim().regex(REF_PATTERN, 'a ref from the snapshot, e.g. e12').describe('The input\'s ref from the latest snapshot, e.g. "e12".'),
      text: z.string().max(10_000).describe('The text to put in it.'),
      submit: z.boolean().optional().describe('Press Enter after typing (submits the form); default false.'),
    }),
    // Submitting sends the form; even typing can trigger a page's own requests.
    risk: 'medium',
    sideEffect: 'write',
    external: true,
    execute: (input, context): Promise<BrowserPageOutput> =>
      pool.withPage('browser_type', context, async (session, page) => {
        const element = await elementByRef(page, input.ref, 'browser_type');
        await element.fill(input.text);
        if (input.submit === true) await element.press('Enter');
        return describePage(session, session.page ?? page, pool.limits);
      }),
  });
}
