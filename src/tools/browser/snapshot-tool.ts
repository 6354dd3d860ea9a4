import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import type { BrowserPool } from './browser-pool.js';
import { describePage, type BrowserPageOutput } from './page-view.js';

/** `browser_snapshot({})`: the run's current page as compact text, as it is now. */
export function createSnapshotTool(pool: BrowserPool) {
  return defineTool({
    name: 'browser_snapshot',
    description:
      "Get the browser's current page again as compact text (after it changed by itself, e.g. content that loaded late), with fresh refs like [e12] for browser_click and browser_type.",
    inputSchema: z.object({}),
    risk: 'medium',
    sideEffect: 'read',
    external: true,
    execute: (_input, context): Promise<BrowserPageOutput> => pool.withPage('browser_snapshot', context, (session, page) => describePage(session, page, pool.limits)),
  });
}
