import type { AnyTool } from '../../core/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import { createSynthesizedTool } from './synthesized-tool.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';

/**
 * Puts one promoted entry into the catalog as an ordinary tool (replacing an older version of it), jailed
 * to its own files folder and counting each successful call in the store, and returns that tool. Entries
 * that are not promoted never enter the catalog (undefined). Runs already going keep the sets they took.
 */
export function registerPromotedTool(registry: ToolRegistry, toolbox: Toolbox, entry: ToolboxEntry): AnyTool | undefined {
  if (entry.status !== 'promoted') return undefined;
  const tool = createSynthesizedTool(entry, {
    jailRoot: toolbox.filesFolder(entry.name),
    onUse: async (name) => {
      await toolbox.addUse(name);
    },
  });
  registry.unregister(entry.name);
  registry.register(tool);
  return tool;
}

/** Registers every promoted tool of the toolbox, skipping names a built-in or MCP tool already holds. */
export async function registerPromotedTools(registry: ToolRegistry, toolbox: Toolbox): Promise<void> {
  for (const entry of await toolbox.promoted()) {
    if (registry.get(entry.name) === undefined) registerPromotedTool(registry, toolbox, entry);
  }
}
