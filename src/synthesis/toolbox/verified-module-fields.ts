import { ToolDefinitionError, type GuardedFetch } from '../../core/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { ToolVerificationError } from './toolbox-errors.js';
import { verifyInScratch } from './verify-in-scratch.js';

export interface ToolModuleSources {
  readonly toolSource: string;
  readonly testSource: string;
  /** Lent to a tool that declares `fetch` while its test runs. */
  readonly fetch: GuardedFetch;
  readonly limits?: Partial<SandboxLimits>;
}

/** The fields of a promoted entry that its module decides, as the gate saw them. */
export type VerifiedModuleFields = Pick<ToolboxEntry, 'name' | 'description' | 'capabilities' | 'capabilities_used' | 'input_schema'>;

/**
 * Puts a tool module and its test through the verification gate (the test must pass in the sandbox and
 * fail on every stub, and the tool may use only what it declares) and returns what the module itself
 * says it is, so an entry is never promoted with a name, schema or capability its verified module does
 * not declare. Throws `ToolVerificationError` listing every reason it did not pass, and
 * `ToolDefinitionError` when a built-in or MCP tool (not a toolbox tool) already has its name.
 */
export async function verifiedModuleFields(toolbox: Toolbox, registry: ToolRegistry, sources: ToolModuleSources): Promise<VerifiedModuleFields> {
  const verification = await verifyInScratch(toolbox, sources);
  const tool = verification.testRun.tool;
  if (!verification.passed || tool === undefined) throw new ToolVerificationError(tool?.meta.name ?? '(unnamed tool)', verification.passed ? [] : verification.failures);
  const name = tool.meta.name;
  if ((await toolbox.get(name)) === undefined && registry.get(name) !== undefined) {
    throw new ToolDefinitionError(name, 'a built-in or MCP tool already has this name; rename the tool in its meta.');
  }
  return {
    name,
    description: tool.meta.description,
    capabilities: [...tool.meta.capabilities],
    capabilities_used: [...verification.testRun.capabilitiesUsed],
    input_schema: tool.meta.input,
  };
}
