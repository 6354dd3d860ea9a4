import { UnknownToolsError, parseRunState, type ApprovalGate, type RunState } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import { RunNotResumableError } from './index.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';
import type { AgentRunResult } from '../engine/index.js';
import type { RunHandle } from './index.js';
import type { ConvergeRunResult } from '../synthesis/converge/index.js';
import type { ForgeRuntime, RunTaskResult } from './task-runs.js';
import { resolveRuntimeModel } from './runtime-model.js';
import { executeTaskLoop } from './task-loop.js';
import { agentLoopSettingsFor } from './agent-loop-settings.js';

export interface ResumeTaskOptions {
  readonly signal?: AbortSignal;
  /** Who answers approvals the resumed run asks for; default the runtime's. */
  readonly approvals?: ApprovalGate;
  /** A model built in code instead of the run's own slug (tests, the library). */
  readonly model?: ResolvedModel;
  readonly maxRetries?: number;
}

/**
 * `forge run --resume <run-id|prefix>`: goes on with a stored agent or convergence run from its last checkpoint
 * (see `RunService.resume` and `runLoop`), with the model, tools, system prompt and conversation it had.
 * Refuses before touching the run when its model is not configured here or a tool of its set no longer
 * exists; completed calls are never run again.
 */
export async function resumeTask(runtime: ForgeRuntime, reference: string, options: ResumeTaskOptions = {}): Promise<RunTaskResult> {
  const { handle, conversationId } = await beginResume(runtime, reference, options);
  const result = await handle.result;
  return { ...result, conversation_id: conversationId(), log_file: handle.logFile };
}

/** `resumeTask` without waiting: refuses what it refuses, then returns the resumed run's handle at once. */
export async function beginResume(runtime: ForgeRuntime, reference: string, options: ResumeTaskOptions = {}): Promise<{ handle: RunHandle<AgentRunResult | ConvergeRunResult>; conversationId: () => string }> {
  const run = await runtime.runs.get(reference);
  const runId = run.id;
  // A run of an agent goes on as its version says, as it started: scopes, answer check, model settings.
  const agent = run.agent === null ? undefined : await agentLoopSettingsFor(runtime, run.agent);
  // A run that paused for an answer takes it from the store; otherwise approvals go to the runtime's gate.
  const paused = run.status === 'waiting';
  const approvals = options.approvals ?? (paused ? storedApprovals(runtime) : undefined);
  // The model is resolved with this runtime's credentials before the run is touched: a missing key refuses here.
  const saved = await runtime.store.runStates.get(runId);
  const model: ResolvedModel | undefined = options.model ?? (saved === undefined ? undefined : await resolveRuntimeModel(runtime, parseRunState(runId, saved).model, `run ${runId}'s model`));
  let conversationId = '';
  const handle = await runtime.runs.resume(runId, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    check(state: RunState) {
      try {
        runtime.registry.snapshot(state.tools);
      } catch (error) {
        if (!(error instanceof UnknownToolsError)) throw error;
        throw new RunNotResumableError(
          runId,
          `its tool set names ${error.toolNames.map((name) => `"${name}"`).join(', ')}, which no longer ${error.toolNames.length === 1 ? 'exists' : 'exist'}`,
          'Reconnect the MCP server or restore the toolbox tool it used, then resume again; or run the task again.',
        );
      }
    },
    execute: (run) => {
      const { state } = run.resume;
      conversationId = state.conversation_id ?? '';
      return executeTaskLoop(runtime, run, {
        kind: state.kind,
        task: state.task,
        model: model!,
        conversationId: state.conversation_id,
        tools: state.tools,
        ...(state.system === null ? {} : { system: state.system }),
        maxIterations: state.max_iterations,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(approvals === undefined ? {} : { approvals }),
        ...(agent === undefined ? {} : { agent }),
        resume: run.resume,
      });
    },
  });
  return { handle, conversationId: () => conversationId };
}

