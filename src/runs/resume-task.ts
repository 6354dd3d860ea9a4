import { UnknownToolsError, describeError, parseRunState, type ApprovalGate, type ErrorInfo, type RunModel, type RunState } from '../core/index.js';
import { modelSlugWithBaseUrl, type ResolvedModel } from '../llm/index.js';
import type { ModelSettings } from '../engine/index.js';
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
  // A run that paused for an answer (or whose resume after one was refused) takes it from the store;
  // otherwise approvals go to the runtime's gate.
  const answered = run.status === 'waiting' || (await runtime.store.approvals.list({ runId, statuses: ['approved', 'denied'] })).length > 0;
  const approvals = options.approvals ?? (answered ? storedApprovals(runtime) : undefined);
  // The model is the one the run started with (slug, base URL, settings), resolved with this runtime's
  // credentials before the run is touched: a missing key refuses here.
  const saved = await runtime.store.runStates.get(runId);
  const started = saved === undefined ? undefined : parseRunState(runId, saved).model;
  const model: ResolvedModel | undefined = options.model ?? (started === undefined ? undefined : await resolveRuntimeModel(runtime, modelSlugWithBaseUrl(started.slug, started.base_url), `run ${runId}'s model`));
  let conversationId = '';
  const accountTools = await runtime.tools.accountTools(run.userId);
  const handle = await runtime.runs.resume(runId, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    check(state: RunState) {
      try {
        runtime.registry.snapshot(state.tools, accountTools);
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
        modelSettings: modelSettingsOf(state.model),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(approvals === undefined ? {} : { approvals }),
        ...(agent === undefined ? {} : { agent }),
        resume: run.resume,
      });
    },
  });
  return { handle, conversationId: () => conversationId };
}


/** The sampling settings a run's state kept, as the loop takes them. */
function modelSettingsOf(model: RunModel): ModelSettings {
  return {
    ...(model.settings.temperature === undefined ? {} : { temperature: model.settings.temperature }),
    ...(model.settings.max_output_tokens === undefined ? {} : { maxOutputTokens: model.settings.max_output_tokens }),
  };
}

/** How a resume after an answer went: the resumed run, the refusal that ended it `failed`, or nobody's business here (another process went on with it). */
export type AnsweredResume =
  | { readonly state: 'resumed'; readonly handle: RunHandle<AgentRunResult | ConvergeRunResult>; readonly conversationId: () => string }
  | { readonly state: 'refused'; readonly error: ErrorInfo }
  | { readonly state: 'elsewhere' };

/**
 * Goes on with a run whose approvals were all answered (see `beginResume`). A resume refused before the
 * run goes on (its model not configured in this process, a tool of its set gone, a checkpoint it cannot
 * read) does not leave the run waiting for nobody: the run ends `failed` (`interrupted`) with the refusal
 * as its error, so it can be resumed once that is fixed, and the refusal is returned for whoever answered.
 */
export async function resumeAnswered(runtime: ForgeRuntime, runId: string, options: ResumeTaskOptions = {}): Promise<AnsweredResume> {
  try {
    return { state: 'resumed', ...(await beginResume(runtime, runId, options)) };
  } catch (error) {
    const refusal = describeError(error);
    const reason: ErrorInfo = {
      name: refusal.name,
      message: `It could not go on after its approval: ${refusal.message}`,
      hint: `${refusal.hint === undefined ? '' : `${refusal.hint} `}Then resume it with \`forge run --resume ${runId}\` (its answered approvals stand), or leave it failed.`,
    };
    if (!(await runtime.runs.failWaiting(runId, reason))) {
      if (error instanceof RunNotResumableError) return { state: 'elsewhere' };
      throw error;
    }
    return { state: 'refused', error: refusal };
  }
}
