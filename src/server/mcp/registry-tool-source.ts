import type { ToolRegistry } from '../../tools/index.js';
import type { ExposedTool, ExposedToolResult, ExposedToolSource } from './exposed-tool-source.js';

export interface RegistryToolSourceOptions {
  readonly registry: ToolRegistry;
  /**
   * Registry names an operator marked exposable. Nothing is exposed by default: a tool that reads
   * files or the network on this machine should reach outside callers only on purpose.
   */
  readonly exposed: readonly string[];
  /** Calls a tool through dispatch as a recorded one-step run; the text is what a model would see. */
  readonly call: (name: string, args: Record<string, unknown>, signal: AbortSignal, userId: string | null) => Promise<{ readonly ok: boolean; readonly output: string }>;
}

/** The scope a caller needs to see and call exposed registry tools, as for `POST /api/v1/tools/{tool}/call`. */
export const TOOLS_SCOPE = 'tools:write';

/**
 * Registry tools an operator chose to expose, each call a recorded run through dispatch, so an MCP
 * client meets the same validation, policy, approvals and output cap as a model inside Forge. Names that are
 * not in the registry are left out of the list rather than failing the server. Only a caller holding
 * `tools:write` sees or calls them, and a call is that caller's run.
 */
export function createRegistryToolSource(options: RegistryToolSourceOptions): ExposedToolSource {
  const exposed = new Set(options.exposed);
  return {
    async list(caller): Promise<ExposedTool[]> {
      if (!caller.scopes.includes(TOOLS_SCOPE)) return [];
      return options.registry
        .specifications()
        .filter((specification) => exposed.has(specification.name))
        .map((specification) => ({ name: specification.name, description: specification.description, inputSchema: specification.inputSchema }));
    },
    async call(name, args, signal, caller): Promise<ExposedToolResult> {
      if (!caller.scopes.includes(TOOLS_SCOPE)) return { text: `Calling "${name}" needs the scope ${TOOLS_SCOPE}.`, isError: true };
      const outcome = await options.call(name, args, signal, caller.userId);
      return { text: outcome.output, isError: !outcome.ok };
    },
  };
}
