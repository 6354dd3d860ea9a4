import { NotFoundError, type GuardedFetch } from '../../core/index.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { verifyInScratch } from './verify-in-scratch.js';
import type { ToolVerification } from './verify-tool.js';

/**
 * `forge tools test`: puts a toolbox tool's stored module and test through the gate again, now (the web
 * it reads may have changed since it was promoted). It only reports: the toolbox is not changed.
 * Throws `NotFoundError` for a name the toolbox does not hold.
 */
export async function retestTool(toolbox: Toolbox, name: string, fetch: GuardedFetch): Promise<{ entry: ToolboxEntry; verification: ToolVerification }> {
  const entry = await toolbox.get(name);
  if (entry === undefined) throw new NotFoundError('toolbox tool', name, 'List the toolbox with `forge tools list`; built-in and MCP tools are not in it.', 'name');
  const verification = await verifyInScratch(toolbox, { toolSource: entry.source, testSource: entry.test, fetch });
  return { entry, verification };
}
