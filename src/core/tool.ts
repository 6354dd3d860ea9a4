import type { z } from 'zod';
import type { GuardedFetch } from './network.js';
import type { UtilityModel } from './model.js';

/** How much harm a tool can do when misused; the policy's defaults decide on it (critical: blocked unless a rule allows it). */
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const satisfies readonly RiskLevel[];

/**
 * Whether a call can change anything: `read` never does (a lookup, a search, a page read); `write` may
 * (it sends, cancels, stores, pays). A skill replay proves every argument of a `write` call before it
 * runs; when a tool cannot say, it is `write`.
 */
export type SideEffect = 'read' | 'write';

/** Everything a tool may use while it runs. Tools reach the network only through `fetch`. */
export interface ToolContext {
  readonly runId: string;
  readonly callId: string;
  /** Aborted when the run is cancelled; long tools must honour it. */
  readonly signal: AbortSignal;
  /** The SSRF-guarded fetch. There is no other sanctioned way out. */
  readonly fetch: GuardedFetch;
  /** A small model for auxiliary work (e.g. query translation); absent when none is configured. */
  readonly utilityModel: UtilityModel | undefined;
  /**
   * The folder the run's workspace tools (files, git, shell) work in, absolute; absent when the run has
   * none set, and the tools then use the installation's (FORGE_WORKSPACE, default FORGE_HOME/workspace).
   */
  readonly workspace?: string;
  /**
   * The account the run belongs to; absent for the operator's runs (the CLI, a server without
   * accounts). What the installation shares between accounts is divided by it (the browser's contexts).
   */
  readonly accountId?: string;
  /**
   * Shows lines the tool logged to the person watching the run (a sandboxed tool's `forge.log`): the
   * dispatch choke point records them as one `tool-log` event before the call's result. The model never
   * sees them. Absent outside a dispatched call.
   */
  readonly log?: (lines: readonly string[]) => void;
}

/**
 * A tool as the registry holds it. The model-facing JSON Schema is derived from `inputSchema`;
 * `execute` receives input that has already passed that schema.
 */
export interface Tool<Input = unknown, Output = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema models are shown, when the tool was defined by one (an MCP server's tool). The
   * registry presents it unchanged instead of deriving one from `inputSchema`, so a remote tool is
   * described exactly as its server describes it; `inputSchema` still validates every call.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  readonly risk: RiskLevel;
  /** The most any call can do; `sideEffectOf` narrows it per input where the tool knows better. */
  readonly sideEffect: SideEffect;
  /**
   * Its output is content Forge did not write (the web, a remote server, a sandboxed tool that fetched):
   * always wrapped in the untrusted-content boundary before a model sees it.
   */
  readonly external?: boolean;
  execute(input: Input, context: ToolContext): Promise<Output>;
}

/** A tool whose side effect depends on its input: `http_request` reads with GET and may write with POST. */
export interface InputDependentSideEffect {
  /** The side effect of a call with this (validated) input. */
  sideEffectOf(input: unknown): SideEffect;
}

export function hasInputDependentSideEffect(tool: object): tool is InputDependentSideEffect {
  return typeof (tool as Partial<InputDependentSideEffect>).sideEffectOf === 'function';
}

/** What one call of `tool` with `input` can do: the tool's own per-input answer, else its declared side effect. */
export function callSideEffect(tool: Pick<Tool, 'sideEffect'>, input: unknown): SideEffect {
  return hasInputDependentSideEffect(tool) ? tool.sideEffectOf(input) : tool.sideEffect;
}

/** Registry names: what every provider accepts. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** A tool of any input type, as collections of tools hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- input types differ per tool; dispatch validates before execute
export type AnyTool = Tool<any, unknown>;

/** Declares a tool with its input type inferred from the zod schema. */
export function defineTool<Schema extends z.ZodType, Output>(
  tool: Omit<Tool<z.infer<Schema>, Output>, 'inputSchema'> & { readonly inputSchema: Schema; sideEffectOf?(input: z.infer<Schema>): SideEffect },
): Tool<z.infer<Schema>, Output> {
  return tool as unknown as Tool<z.infer<Schema>, Output>;
}
