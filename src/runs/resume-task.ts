import { UnknownToolsError, describeError, type ApprovalGate, type ErrorInfo, type RunModel, type RunState } from '../core/index.js';
import { modelSlugWithBaseUrl, type ResolvedModel } from '../llm/index.js';
import type { ModelSettings } from '../engine/index.js';
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
  // A run that paused for an answer (or whose resume after one was refused) takes it from the store;
  // otherwise approvals go to the runtime's gate.
  const answered = run.status === 'waiting' || (await runtime.store.approvals.list({ runId, statuses: ['approved', 'denied'] })).length > 0;
  const approvals = options.approvals ?? (answered ? storedApprovals(runtime) : undefined);
  // The model is the one the run started with (slug, base URL, settings), resolved with this runtime's
  // credentials before the run is touched: a missing key refuses here.
  const model: ResolvedModel = options.model ?? (await resolveRuntimeModel(runtime, modelSlugWithBaseUrl(saved.model.slug, saved.model.base_url), `run ${runId}'s model`));
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
            modelSettings: modelSettingsOf(state.model),
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

/** The sampling settings a run's state kept, as the loop takes them. */
function modelSettingsOf(model: RunModel): ModelSettings {
  return {
    ...(model.settings.temperature === undefined ? {} : { temperature: model.settings.temperature }),
    ...(model.settings.max_output_tokens === undefined ? {} : { maxOutputTokens: model.settings.max_output_tokens }),
  };
}

/** How a resume after an answer was refused: the refusal that ended the run `failed`, or nobody's business here (another process went on with it). */
export type RefusedResume = { readonly state: 'refused'; readonly error: ErrorInfo } | { readonly state: 'elsewhere' };

/**
 * A resume of a run whose approvals were all answered, refused before the run went on (its model not
 * configured in this process, a tool of its set gone, a checkpoint it cannot read), does not leave the
 * run waiting for nobody: the run ends `failed` (`interrupted`) with the refusal as its error, so it can
 * be resumed once that is fixed, and the refusal is returned for whoever answered. Rethrows the refusal
 * when the run does not wait any more for another reason than being resumed elsewhere.
 */
export async function endRefusedResume(runtime: ForgeRuntime, runId: string, error: unknown): Promise<RefusedResume> {
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
