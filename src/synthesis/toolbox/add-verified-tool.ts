import { ToolDefinitionError, type GuardedFetch } from '../../core/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import { registerPromotedTool } from './register-promoted-tools.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { ToolVerificationError } from './toolbox-errors.js';
import { verifyInScratch } from './verify-in-scratch.js';

export interface AddVerifiedToolOptions {
  readonly toolSource: string;
  readonly testSource: string;
  /** Lent to a tool that declares `fetch` while its test runs. */
  readonly fetch: GuardedFetch;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * `forge tools add`: a hand-written tool passes the very gate synthesized tools pass (its test must pass
 * in the sandbox, fail on every stub, and the tool may use only what it declares), then is promoted and
 * registered in the catalog, for runs started from then on. Throws `ToolVerificationError` listing every
 * reason it did not pass (nothing is recorded), and `ToolDefinitionError` when a built-in or MCP tool
 * already has its name.
 */
export async function addVerifiedTool(toolbox: Toolbox, registry: ToolRegistry, options: AddVerifiedToolOptions): Promise<ToolboxEntry> {
  const verification = await verifyInScratch(toolbox, options);
  const tool = verification.testRun.tool;
  if (!verification.passed || tool === undefined) throw new ToolVerificationError(tool?.meta.name ?? '(unnamed tool)', verification.passed ? [] : verification.failures);
  const name = tool.meta.name;
  if (toolbox.get(name) === undefined && registry.get(name) !== undefined) {
    throw new ToolDefinitionError(name, 'a built-in or MCP tool already has this name; rename the tool in its meta.');
  }
  const now = new Date().toISOString();
  const entry = await toolbox.put({
    name,
    description: tool.meta.description,
    status: 'promoted',
    origin: 'added',
    source: options.toolSource,
    test: options.testSource,
    revisions: 0,
    uses: toolbox.get(name)?.uses ?? 0,
    capabilities: [...tool.meta.capabilities],
    capabilities_used: [...verification.testRun.capabilitiesUsed],
    input_schema: tool.meta.input,
    failures: [],
    cost_usd: 0,
    created_at: toolbox.get(name)?.created_at ?? now,
    updated_at: now,
  });
  registerPromotedTool(registry, toolbox, entry);
  return entry;
}
