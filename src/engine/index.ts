export { DEFAULT_MAX_ITERATIONS, agentRules, runAgent, type AgentRunOptions, type AgentRunResult, type RunStep } from './agent-loop.js';
export { DEFAULT_MEMORY_BOUNDS, boundHistory, type MemoryBounds } from './conversation-memory.js';
export { refuseApprovals } from '../policy/approvals/refuse-approvals.js';
export { DEFAULT_SYSTEM_PROMPT, buildSystemPrompt } from './system-prompt.js';
export { providerToolsFrom, streamMeteredModelTurn, streamModelTurn, type LoopMessage, type MeteredModelTurn, type ModelSettings, type ModelToolCall, type ModelTurn } from './model-turn.js';
export { finishRun, type RunSummary } from './finish-run.js';
export type { LoopContext, LoopRules, TurnReport, TurnVerdict } from './loop-rules.js';
export { runLoop, type LoopOptions, type LoopPersistence, type LoopResult, type LoopResume } from './run-loop.js';
