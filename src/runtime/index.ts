export { forgeEnvironmentSchema, loadConfig, type Environment, type ForgeConfig } from './config.js';
export { createRuntime, type ForgeRuntime, type RuntimeMcpOptions, type RuntimeParts } from './create-runtime.js';
export { openRuntime, runTask, wipeToolbox, type RuntimeOptions, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';
export { resolveRuntimeModel } from './runtime-model.js';
export { SkillService, type SaveSkillFromRunOptions, type SavedSkill, type SkillServiceParts } from './skill-service.js';
export { runSkill, runTaskWithSkills, type RunSkillOptions, type RunSkillResult, type SkillAwareRunResult } from './skill-runs.js';
export { ToolService, type ToolDescription, type ToolRow, type ToolServiceParts, type ToolboxRow } from './tool-service.js';
export { newRunId, type RunHandle } from '../runs/index.js';
export { callTool, type CallToolOptions, type ToolCallResult } from './tool-calls.js';
