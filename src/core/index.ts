export * from './errors.js';
export * from './events.js';
export type * from './model.js';
export type * from './network.js';
export type * from './policy.js';
export type * from './store.js';
export type * from './stats-store.js';
export type { AnyTool, InputDependentSideEffect, RiskLevel, SideEffect, Tool, ToolContext } from './tool.js';
export { TOOL_NAME_PATTERN, callSideEffect, defineTool, hasInputDependentSideEffect } from './tool.js';
