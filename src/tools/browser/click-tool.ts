import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import type { BrowserPool } from './browser-pool.js';
import { REF_PATTERN, elementByRef, elementByText } from './page-elements.js';
import { describePage, type BrowserPageOutput } from './page-view.js';

/** The element is, or is inside, a link that opens a new tab. */
const NEW_TAB_LINK = 'xpath=ancestor-or-self::*[(self::a or self::area) and @href and @target="_blank"]';

/** `browser_click({ref} | {text})`: clicks an element of the current page and returns the page after it. */
export function createClickTool(pool: BrowserPool) {
  return defineTool({
    name: 'browser_click',
    description:
      'Click a link, button or other element of the current browser page, named by its ref from the latest snapshot (preferred) or by the text it shows. Returns the page after the click (a new page when the click navigated or opened one).',
    inputSchema: z
      .object({
        ref: z.string().trim().regex(REF_PATTERN, 'a ref from the snapshot, e.g. e12').optional().describe('The element\'s ref from the latest snapshot, e.g. "e12".'),
        text: z.string().trim().min(1).max(500).optional().describe('The text the element shows, when you have no ref.'),
      })
      .refine((input) => (input.ref === undefined) !== (input.text === undefined), 'give either ref or text, not both'),
    // A click can submit a form or buy something: it may change remote state.
    risk: 'medium',
    sideEffect: 'write',
    external: true,
    execute: (input, context): Promise<BrowserPageOutput> =>
      pool.withPage('browser_click', context, async (session, page) => {
        const element = input.ref !== undefined ? await elementByRef(page, input.ref, 'browser_click') : await elementByText(page, input.text ?? '', 'browser_click');
        if ((await element.locator(NEW_TAB_LINK).count()) > 0) {
          // The new tab is announced after the click returns; the page described must be it.
          const opened = session.context.waitForEvent('page', { timeout: pool.limits.settleMs }).catch(() => undefined);
          await element.click();
          await opened;
        } else {
          await element.click();
        }
        return describePage(session, session.page ?? page, pool.limits);
      }),
  });
}
