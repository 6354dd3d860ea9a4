import type { ToolRegistry } from '../../tools/index.js';
import { registerPromotedTool } from './register-promoted-tools.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { verifiedModuleFields, type ToolModuleSources } from './verified-module-fields.js';

export type AddVerifiedToolOptions = ToolModuleSources;

/**
 * `forge tools add`: a hand-written tool passes the very gate synthesized tools pass (see
 * `verifiedModuleFields`), then is promoted and registered in the catalog, for runs started from then
 * on. Throws `ToolVerificationError` listing every reason it did not pass (nothing is recorded), and
 * `ToolDefinitionError` when a built-in or MCP tool already has its name. Adding a tool the toolbox
 * holds replaces it, keeping its use count and creation time.
 */
export async function addVerifiedTool(toolbox: Toolbox, registry: ToolRegistry, options: AddVerifiedToolOptions): Promise<ToolboxEntry> {
  const fields = await verifiedModuleFields(toolbox, registry, options);
  const existing = await toolbox.get(fields.name);
  const now = new Date().toISOString();
  const entry = await toolbox.put({
    ...fields,
    status: 'promoted',
    origin: 'added',
    source: options.toolSource,
    test: options.testSource,
    revisions: 0,
    uses: existing?.uses ?? 0,
    failures: [],
    cost_usd: 0,
    owner: null,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  });
  registerPromotedTool(registry, toolbox, entry);
  return entry;
}
