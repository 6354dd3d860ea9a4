/**
 * `forge-agent`: Forge as a library. Open a runtime (the same one the `forge` command opens), then
 * start runs through the same front door the CLI and the server use (`runtime.runs.submit` /
 * `runtime.runs.execute` with a `RunRequest`), or its shortcuts: an agent run (`runTask`), a skill
 * replay (`runSkill`, `runTaskWithSkills`), a direct tool call (`callTool`), a resumed run
 * (`resumeTask`) and approvals. Tools are written with `forge-agent/tools`; cassettes and the fixture
 * world for tests come from `forge-agent/testing`.
 */
export {
  ApprovalAnswerError,
  answerApproval,
  callTool,
  cancelWaitingRun,
  createRuntime,
  listApprovals,
  loadConfig,
  openRuntime,
  resumeTask,
  runSkill,
  runTask,
  runTaskWithSkills,
  waitAndResume,
  wipeToolbox,
  type AnswerApprovalOptions,
  type AnswerApprovalResult,
  type CallToolOptions,
  type Environment,
  type ForgeConfig,
  type ForgeRuntime,
  type ResumeTaskOptions,
  type RunSkillOptions,
  type RunSkillResult,
  type RunTaskOptions,
  type RunTaskResult,
  type RunPrincipal,
  type RuntimeOptions,
  type RuntimeParts,
  type StartedRun,
  type SubmittedRun,
  type SavedSkill,
  type SkillAwareRunResult,
  type ToolCallResult,
  type ToolDescription,
} from '../compose/index.js';
export * from '../core/errors.js';
export type { ErrorInfo, ForgeEvent, HaltReason, RunKind, RunStatus } from '../core/events.js';
export type { RunRequest, RunRequestInput, RunRequestKind } from '../core/run-request.js';
export type { TokenUsage } from '../core/model.js';
export type { ApprovalGate, Credentials, EventBus, JobQueue, Policy, Store } from '../core/index.js';
export { EnvironmentCredentials, type ResolvedModel } from '../llm/index.js';
export type { SkillDocument } from '../skills/index.js';
export { FORGE_VERSION } from '../version.js';
