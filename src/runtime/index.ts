export { forgeEnvironmentSchema, loadConfig, type Environment, type ForgeConfig } from './config.js';
export { newRunId, openRuntime, runTask, type ForgeRuntime, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';
