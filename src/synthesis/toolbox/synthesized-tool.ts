import { ToolExecutionError, type AnyTool, type RiskLevel, type SideEffect } from '../../core/index.js';
import { inputSchemaFromJsonSchema } from '../../tools/mcp/index.js';
import { runInSandbox, type JsonValue, type SandboxLimits } from '../sandbox/index.js';
import type { ToolboxEntry } from './toolbox-entry.js';

export interface SynthesizedToolOptions {
  /** The folder `forge.fs` is jailed to. */
  readonly jailRoot: string;
  readonly limits?: Partial<SandboxLimits>;
  /** Called after each successful run, to count its use in the toolbox. */
  readonly onUse?: (name: string) => Promise<void>;
}

/** `fs` writes files and `fetch` may send any method, so either may change state; `log` alone only reads. */
function sideEffectOf(entry: ToolboxEntry): SideEffect {
  return entry.capabilities.includes('fetch') || entry.capabilities.includes('fs') ? 'write' : 'read';
}

function riskOf(entry: ToolboxEntry): RiskLevel {
  return entry.capabilities.includes('fetch') || entry.capabilities.includes('fs') ? 'medium' : 'low';
}

/**
 * A promoted toolbox entry as an ordinary registry tool: dispatch validates its input against the zod
 * schema derived from the module's own JSON Schema, the policy judges it like any other tool, and every
 * call runs the verified source in a fresh sandbox with exactly its declared capabilities, fetching
 * through the run's guarded fetch. A tool that uses the network or reads files is `external`, so its
 * output and its errors are wrapped as untrusted; one that may fetch or write files is a `write` tool. What the guest wrote with
 * `forge.log` goes to the run's watcher (`context.log`, a `tool-log` event), never to the model.
 */
export function createSynthesizedTool(entry: ToolboxEntry, options: SynthesizedToolOptions): AnyTool {
  return {
    name: entry.name,
    description: entry.description,
    // The schema is the module's own data: its patterns must run in linear time, like a remote server's.
    inputSchema: inputSchemaFromJsonSchema(entry.input_schema),
    inputJsonSchema: entry.input_schema,
    risk: riskOf(entry),
    sideEffect: sideEffectOf(entry),
    // What it fetched or read from the workspace (a download, a cloned repository) came from outside, like file_read's.
    external: entry.capabilities.includes('fetch') || entry.capabilities.includes('fs'),
    async execute(input, context) {
      const result = await runInSandbox({
        source: entry.source,
        input: input as JsonValue,
        capabilities: entry.capabilities,
        hostCapabilities: { fetch: context.fetch, jailRoot: options.jailRoot },
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      });
      // Logged lines are shown whether the call worked or not: they are most useful when it did not.
      context.log?.(result.logs);
      if (!result.ok) throw new ToolExecutionError(entry.name, `${result.error.name}: ${result.error.message}`);
      await options.onUse?.(entry.name);
      return result.value;
    },
  };
}
