/**
 * `forge-agent/tools`: what a tool written in TypeScript needs. Define it with `defineTool` (its input
 * type comes from its zod schema) and register it on a runtime (`runtime.registry.register(tool)`):
 * every call then passes the same dispatch as built-in tools (validation, policy, output cap, the
 * untrusted-content boundary for `external` tools). A tool reaches the network only through
 * `context.fetch`, the SSRF-guarded fetch.
 */
export { TOOL_NAME_PATTERN, defineTool, type AnyTool, type InputDependentSideEffect, type RiskLevel, type SideEffect, type Tool, type ToolContext } from '../core/index.js';
export type { GuardedFetch, GuardedResponse } from '../core/network.js';
export type { UtilityModel } from '../core/model.js';
export { ToolDefinitionError, ToolExecutionError, ToolInputError } from '../core/errors.js';
