import { z } from 'zod';
import { defineTool, type AnyTool } from '../../src/core/index.js';

/**
 * The side effect of the scaled-mode tests: a write that POSTs to `<base>/<run id>` (a counting server),
 * so how many times each run's effect landed is counted outside every Forge process.
 */
export function effectTool(base: string): AnyTool {
  return defineTool({
    name: 'record_effect',
    description: 'Records that this run happened, once, at the ledger.',
    inputSchema: z.object({ note: z.string() }),
    risk: 'low',
    sideEffect: 'write',
    execute: async ({ note }, context) => {
      const response = await context.fetch(`${base}/${context.runId}`, { method: 'POST', body: note, signal: context.signal });
      return { recorded: response.status === 200 };
    },
  });
}
