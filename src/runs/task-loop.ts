import { DEFAULT_MAX_ITERATIONS, type ModelSettings, type AgentRunOptions, type AgentRunResult, type LoopMessage, type LoopResume } from '../engine/index.js';
import { runAgent } from '../engine/index.js';
import type { ApprovalGate } from '../core/index.js';
import { createUtilityModel, type ResolvedModel } from '../llm/index.js';
import type { ActiveRun } from './index.js';
import { runConverge, type ConvergeRunResult } from '../synthesis/converge/index.js';
import { toStoredMessage } from '../conversations/conversation-messages.js';
import type { ForgeRuntime } from './task-runs.js';
import { resolveRuntimeModel } from './runtime-model.js';
import type { AgentLoopSettings } from './agent-loop-settings.js';
import { runToolContext } from './run-tool-context.js';

/** What a task's loop needs besides its run: the same whether it starts or resumes. */
export interface TaskLoopSpec {
  readonly kind: 'agent' | 'converge';
  readonly task: string;
  readonly model: ResolvedModel;
  readonly conversationId: string | null;
  /** Earlier messages of the conversation (a new run only; a resumed run has them in its state). */
  readonly history?: readonly LoopMessage[];
  readonly tools?: readonly string[];
  readonly system?: string;
  readonly maxIterations?: number;
  readonly maxRetries?: number;
  readonly approvals?: ApprovalGate;
  readonly resume?: LoopResume;
  /** The agent version the run runs: its policy scopes, answer check and model settings. */
  readonly agent?: AgentLoopSettings;
  /** Sampling settings that win over the agent's (a resumed run's, as its state kept them). */
  readonly modelSettings?: ModelSettings;
}

/**
 * Runs an agent or convergence loop for `run` with the runtime's parts: its catalog, policy, approvals,
 * guarded fetch and toolbox; messages go to the conversation (redacted) as they are said, and the run
 * is checkpointed through the run service.
 */
export async function executeTaskLoop(runtime: ForgeRuntime, run: ActiveRun, spec: TaskLoopSpec): Promise<AgentRunResult | ConvergeRunResult> {
  const { store, config } = runtime;
  const conversationId = spec.conversationId;
  const modelSettings = spec.modelSettings ?? spec.agent?.modelSettings;
  const onMessages: NonNullable<AgentRunOptions['onMessages']> = async (messages, details) => {
    if (conversationId === null) return;
    await store.conversations.appendMessages(
      conversationId,
      messages.map((message) => runtime.redactor.redactValue(toStoredMessage(message, run.runId, details))),
    );
  };
  const common = {
    task: spec.task,
    model: spec.model,
    registry: runtime.registry,
    ...(spec.tools === undefined ? {} : { tools: spec.tools }),
    accountTools: await runtime.tools.accountTools(run.userId),
    emitter: run.emitter,
    meter: run.meter,
    policy: runtime.policy,
    ...(spec.agent === undefined ? {} : { policyScopes: spec.agent.policyScopes }),
    ...(spec.agent?.checkAnswer === undefined ? {} : { checkAnswer: spec.agent.checkAnswer }),
    ...(modelSettings === undefined ? {} : { modelSettings }),
    approvals: spec.approvals ?? runtime.approvals,
    toolContext: { ...runToolContext(runtime, run, spec.agent?.ownWorkspace === true ? { agentSlug: spec.agent.pin.slug } : {}), utilityModel: createUtilityModel(spec.model, run.meter, run.emitter.emit) },
    callGuards: config.callGuards,
    ...(spec.system === undefined ? {} : { system: spec.system }),
    signal: run.signal,
    ...(spec.maxRetries === undefined ? {} : { maxRetries: spec.maxRetries }),
    onMessages,
    conversationId,
    persistence: run.persistence,
    ...(spec.resume === undefined ? {} : { resume: spec.resume }),
  };
  if (spec.kind === 'converge') {
    const testSlug = config.env['FORGE_TEST_MODEL']?.trim();
    return runConverge({
      ...common,
      ...(testSlug ? { testModel: await resolveRuntimeModel(runtime, testSlug, 'FORGE_TEST_MODEL') } : {}),
      toolbox: runtime.toolbox,
      toolboxOwner: run.userId,
      ...(spec.maxIterations === undefined ? {} : { maxTurns: spec.maxIterations }),
      ...(spec.history === undefined ? {} : { history: spec.history }),
    });
  }
  return runAgent({ ...common, ...(spec.history === undefined ? {} : { history: spec.history }), maxIterations: spec.maxIterations ?? DEFAULT_MAX_ITERATIONS });
}
