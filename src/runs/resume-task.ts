import { UnknownToolsError, type ApprovalGate, type RunState } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import { RunNotResumableError } from './index.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';
import type { ForgeRuntime, RunTaskResult } from './task-runs.js';
import { resolveRuntimeModel } from './runtime-model.js';
import { executeTaskLoop } from './task-loop.js';
import { agentLoopSettingsFor } from './agent-loop-settings.js';
import type { PreparedRun } from './prepared-run.js';

export interface ResumeOptions {
  readonly signal?: AbortSignal;
  /** Who answers approvals the resumed run asks for; default the store (a paused run) or the runtime's. */
  readonly approvals?: ApprovalGate;
  /** A model built in code instead of the run's own slug (tests, the library). */
  readonly model?: ResolvedModel;
  readonly maxRetries?: number;
}

/**
 * Checks that a stored agent or convergence run (by id or unique prefix) can go on from its last
 * checkpoint here (see `RunService.resume` and `runLoop`), with the model, tools, system prompt and
 * conversation it had: it waits or was interrupted, it has a checkpoint, its model is configured here
 * and every tool of its set still exists; refused before the run is touched otherwise. Started, completed
 * calls are never run again.
 */
export async function prepareResume(runtime: ForgeRuntime, reference: string, options: ResumeOptions = {}): Promise<PreparedRun<RunTaskResult>> {
  const { run, state: saved } = await runtime.runs.resumable(reference);
  const runId = run.id;
  // A run of an agent goes on as its version says, as it started: scopes, answer check, model settings.
  const agent = run.agent === null ? undefined : await agentLoopSettingsFor(runtime, run.agent);
  // A run that paused for an answer takes it from the store; otherwise approvals go to the runtime's gate.
  const approvals = options.approvals ?? (run.status === 'waiting' ? storedApprovals(runtime) : undefined);
  // The model is resolved with this runtime's credentials before the run is touched: a missing key refuses here.
  const model: ResolvedModel = options.model ?? (await resolveRuntimeModel(runtime, saved.model, `run ${runId}'s model`));
  const check = (state: RunState) => {
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
  };
  check(saved);
  return {
    record: null,
    resumes: runId,
    start: async () => {
      let conversationId = '';
      const handle = await runtime.runs.resume(runId, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        check,
        execute: (resumed) => {
          const { state } = resumed.resume;
          conversationId = state.conversation_id ?? '';
          return executeTaskLoop(runtime, resumed, {
            kind: state.kind,
            task: state.task,
            model,
            conversationId: state.conversation_id,
            tools: state.tools,
            ...(state.system === null ? {} : { system: state.system }),
            maxIterations: state.max_iterations,
            ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
            ...(approvals === undefined ? {} : { approvals }),
            ...(agent === undefined ? {} : { agent }),
            resume: resumed.resume,
          });
        },
      });
      return { runId, logFile: handle.logFile, result: handle.result.then((result) => ({ ...result, conversation_id: conversationId, log_file: handle.logFile })) };
    },
  };
}
