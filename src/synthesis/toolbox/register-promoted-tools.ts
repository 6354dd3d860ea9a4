import type { AnyTool } from '../../core/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import { createSynthesizedTool } from './synthesized-tool.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';

/** A promoted entry as an ordinary tool, jailed to its own files folder and counting each successful call in the store. */
export function toolOfEntry(toolbox: Toolbox, entry: ToolboxEntry): AnyTool {
  return createSynthesizedTool(entry, {
    jailRoot: toolbox.filesFolder(entry.name),
    onUse: async (name) => {
      await toolbox.addUse(name);
    },
  });
}

/**
 * Puts one promoted entry of the installation's toolbox into the catalog as an ordinary tool
 * (replacing an older version of it), and returns that tool. Entries that are not promoted, or that an
 * account's toolbox holds, never enter the catalog (undefined). Runs already going keep the sets they took.
 */
export function registerPromotedTool(registry: ToolRegistry, toolbox: Toolbox, entry: ToolboxEntry): AnyTool | undefined {
  if (entry.status !== 'promoted' || entry.owner !== null) return undefined;
  const tool = toolOfEntry(toolbox, entry);
  registry.unregister(entry.name);
  registry.register(tool);
  return tool;
}

/** Registers every promoted tool of the installation's toolbox, skipping names a built-in or MCP tool already holds. */
export async function registerPromotedTools(registry: ToolRegistry, toolbox: Toolbox): Promise<void> {
  for (const entry of await toolbox.promoted()) {
    if (registry.get(entry.name) === undefined) registerPromotedTool(registry, toolbox, entry);
  }
}

/**
 * The promoted tools of `owner`'s own toolbox, as tools for that account's runs alone (none for the
 * operator, whose tools are the installation's). They never enter the catalog.
 */
export async function accountToolsOf(toolbox: Toolbox, owner: string | null): Promise<AnyTool[]> {
  if (owner === null) return [];
  return (await toolbox.list()).filter((entry) => entry.status === 'promoted' && entry.owner === owner).map((entry) => toolOfEntry(toolbox, entry));
}
