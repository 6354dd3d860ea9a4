export { forgeEnvironmentSchema, loadConfig, type Environment, type ForgeConfig } from './config.js';
export { newRunId, openRuntime, runTask, wipeToolbox, type ForgeRuntime, type RuntimeOptions, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';
export { importSkill, loadSkill, runSkill, runTaskWithSkills, saveSkillFromRun, type RunSkillOptions, type RunSkillResult, type SkillAwareRunResult } from './skill-runs.js';
