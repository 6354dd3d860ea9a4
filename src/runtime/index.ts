export { forgeEnvironmentSchema, loadConfig, type Environment, type ForgeConfig } from './config.js';
export { openRuntime, runTask, wipeToolbox, type ForgeRuntime, type RuntimeOptions, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';
export { editSkill, importSkill, loadSkill, rollbackSkill, runSkill, runTaskWithSkills, saveSkillFromRun, type RunSkillOptions, type RunSkillResult, type SaveSkillFromRunOptions, type SavedSkill, type SkillAwareRunResult, writeConstantsOf } from './skill-runs.js';
export { newRunId, type RunHandle } from '../runs/index.js';
export { callTool, type CallToolOptions, type ToolCallResult } from './tool-calls.js';
export { resumeTask, type ResumeTaskOptions } from './resume-task.js';
export { ApprovalAnswerError, answerApproval, cancelWaitingRun, expireWaitingRuns, listApprovals, waitAndResume, type AnswerApprovalOptions, type AnswerApprovalResult } from './approval-answers.js';
