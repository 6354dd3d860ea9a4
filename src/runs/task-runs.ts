import { randomUUID } from 'node:crypto';
import { DEFAULT_MEMORY_BOUNDS, boundHistory, finishRun, type AgentRunResult } from '../engine/index.js';
import { NotFoundError, type AnyEventBody, type ApprovalGate, type Store } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import type { ConvergeRunResult } from '../synthesis/converge/index.js';
import { loadConfig, type Environment } from '../config/forge-config.js';
import { toLoopMessage, toStoredMessage } from '../conversations/conversation-messages.js';
import { createRuntime, type ForgeRuntime, type RuntimeParts } from '../compose/create-runtime.js';
import { runCredentials } from './run-credentials.js';
import { saveRunPolicy, validRunRules } from './run-policy.js';
import { resolveRuntimeModel } from './runtime-model.js';
import { executeTaskLoop } from './task-loop.js';
import type { AgentLoopSettings } from './agent-loop-settings.js';
import type { ActiveRun } from './index.js';
import type { PreparedRun } from './prepared-run.js';
import { startedOrRefused } from './run-service.js';

export type { ForgeRuntime } from '../compose/create-runtime.js';

/** Choices a composition root makes when it opens the runtime from an environment: any part but the configuration. */
export type RuntimeOptions = Omit<RuntimeParts, 'config'>;

/**
 * The CLI's convenience: reads the configuration from `env` (relative paths against `cwd`) and creates
 * the runtime with it (see `createRuntime`), every part not in `options` at its default.
 */
export async function openRuntime(env: Environment = process.env, cwd: string = process.cwd(), options: RuntimeOptions = {}): Promise<ForgeRuntime> {
  return createRuntime({ ...options, config: loadConfig(env, cwd) });
}

/** What a task run is given in code, besides its request: the parts that do not cross to a worker. */
export interface TaskRunOptions {
  readonly task: string;
  /** A slug, or a model built in code; default FORGE_MODEL or the first vendor with a key. */
  readonly model?: string | ResolvedModel;
  readonly maxIterations?: number;
  readonly system?: string;
  /**
   * The tools the run may use, by exact name; default every tool in the catalog when the run starts. A
   * name no tool has is an `UnknownToolsError` listing what exists, thrown before a run or conversation
   * is created.
   */
  readonly tools?: readonly string[];
  /** Continue this persisted conversation; a new one is created when absent. */
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
  readonly maxRetries?: number;
  /** Events that open the run's log before the loop starts (e.g. why no stored skill replaced the agent). */
  readonly preludeEvents?: readonly AnyEventBody[];
  /** Run the convergence-gated loop: one tool per turn, request_tool, plan. */
  readonly converge?: boolean;
  /** `fresh` wipes the toolbox before the run; `keep` (the default) reuses it. */
  readonly toolbox?: 'keep' | 'fresh';
  /** Who answers this run's approvals; default the runtime's (which refuses: nobody is attached). */
  readonly approvals?: ApprovalGate;
  /** The account the run (and a new conversation) belongs to; none for the CLI's runs. */
  readonly userId?: string | null;
  /** The service key that asked for the run, when one did: its quota counts the run. */
  readonly apiKeyId?: string | null;
  /** The run's own policy rules, saved as the `run:<id>` scope before its first call: they only tighten, and survive a resume. */
  readonly policyRules?: readonly unknown[];
  /** How many earlier messages of the conversation are sent again (an agent's memory.history_limit); default FORGE_HISTORY_MESSAGES. */
  readonly historyMessages?: number;
  /**
   * Work inside the run before its loop (an agent's chat turn reads its parameters with one metered model
   * call): gives the loop's system prompt, or a reply that ends the run without a loop (asking for what
   * is missing), which the conversation records like any answer.
   */
  readonly prepare?: (run: ActiveRun, model: ResolvedModel) => Promise<{ readonly system: string } | { readonly reply: string }>;
  /** The agent definition version the run runs: recorded with the run, its scopes, answer check and model settings applied. */
  readonly agent?: AgentLoopSettings;
}

export interface RunTaskResult extends AgentRunResult {
  readonly conversation_id: string;
  readonly log_file: string;
}

/**
 * Checks a task run and makes it ready to start: resolves the model (a clear error when none is
 * configured), checks the tool names and the run's rules, and finds its conversation (or names the new
 * one, created once the run is admitted), all before any run exists. Started, it records the run in the store and the run log (the runtime's secrets
 * redacted from both), continues the conversation with bounded history, and ends with the documented
 * JSON shape. The run's tools are the catalog's (or those `tools` names) as they are when its loop
 * starts, after a `fresh` wipe; nothing the catalog gains or loses later reaches it.
 */
export async function prepareTaskRun(runtime: ForgeRuntime, options: TaskRunOptions): Promise<PreparedRun<RunTaskResult>> {
  const { store, config } = runtime;
  const model =
    typeof options.model === 'object'
      ? options.model
      : await resolveRuntimeModel({ config: runtime.config, credentials: runCredentials(runtime, options.userId) }, options.model, options.model === undefined ? 'FORGE_MODEL' : '--model');
  // A tool list naming what does not exist is a usage error, not a failed run; the loop takes the set itself when it starts.
  if (options.tools !== undefined) runtime.registry.snapshot(options.tools, await runtime.tools.accountTools(options.userId ?? null));
  // So are rules that do not validate: checked before anything is created.
  const policyRules = options.policyRules === undefined ? undefined : validRunRules(options.policyRules);
  // A new conversation is created once the run is admitted (a refused start leaves none); a named one must exist.
  const newConversation =
    options.conversationId === undefined ? { id: randomUUID(), title: runtime.redactor.redactText(options.task).slice(0, 80), userId: options.userId ?? null } : undefined;
  const conversation = newConversation ?? (await requireConversation(store, options.conversationId!));
  const kind = options.converge === true ? 'converge' : 'agent';
  const record = {
    kind,
    task: runtime.redactor.redactText(options.task),
    model: model.slug,
    conversationId: conversation.id,
    ...(newConversation === undefined ? {} : { newConversation }),
    userId: options.userId ?? null,
    apiKeyId: options.apiKeyId ?? null,
    ...(options.agent === undefined ? {} : { agent: options.agent.pin }),
  } as const;
  return {
    record,
    conversationId: conversation.id,
    start: async (start) => {
      const bounds = {
        maxMessages: options.historyMessages ?? config.historyMessages ?? DEFAULT_MEMORY_BOUNDS.maxMessages,
        maxTokens: config.historyTokens ?? DEFAULT_MEMORY_BOUNDS.maxTokens,
      };
      const history = newConversation === undefined ? boundHistory((await store.conversations.listMessages(conversation.id, { lastN: bounds.maxMessages })).map(toLoopMessage), bounds) : [];
      const handle = runtime.runs.start({
        ...record,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(start.queuedRunId === undefined ? {} : { queuedRunId: start.queuedRunId }),
        execute: async (run): Promise<AgentRunResult | ConvergeRunResult> => {
          await saveRunPolicy(runtime, run.runId, policyRules, options.userId);
          for (const body of options.preludeEvents ?? []) run.emitter.emit(body);
          if (options.toolbox === 'fresh') await wipeToolbox(runtime);
          const prepared = await options.prepare?.(run, model);
          if (prepared !== undefined && 'reply' in prepared) return replyWithoutLoop(runtime, run, conversation.id, options.task, prepared.reply);
          const system = prepared?.system ?? options.system;
          return executeTaskLoop(runtime, run, {
            kind,
            task: options.task,
            model,
            conversationId: conversation.id,
            history,
            ...(options.tools === undefined ? {} : { tools: options.tools }),
            ...(system === undefined ? {} : { system }),
            ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
            ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
            ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
            ...(options.agent === undefined ? {} : { agent: options.agent }),
          });
        },
      });
      await startedOrRefused(handle);
      return { runId: handle.runId, logFile: handle.logFile, result: handle.result.then((result) => ({ ...result, conversation_id: conversation.id, log_file: handle.logFile })) };
    },
  };
}

/**
 * `--fresh`: the toolbox's tools leave the catalog (runs already going keep theirs), then the store's
 * toolbox and the tools' files are wiped.
 */
export async function wipeToolbox(runtime: ForgeRuntime): Promise<void> {
  await runtime.tools.wipeToolbox();
}

async function requireConversation(store: Store, id: string) {
  const conversation = await store.conversations.get(id);
  if (conversation === undefined) {
    throw new NotFoundError('conversation', id, 'Use the conversation_id printed by an earlier `forge run --json`, or omit --conversation to start a new one.');
  }
  return conversation;
}


/** A turn answered without the loop: the message and the reply go to the conversation, the run completes with the reply. */
async function replyWithoutLoop(runtime: ForgeRuntime, run: ActiveRun, conversationId: string, task: string, reply: string): Promise<AgentRunResult> {
  const started = performance.now();
  run.emitter.emit({ type: 'assistant-text', iteration: 0, text: reply });
  const details = { model: null, tokens: null };
  await runtime.store.conversations.appendMessages(conversationId, [
    runtime.redactor.redactValue(toStoredMessage({ role: 'user', content: [{ type: 'text', text: task }] }, run.runId, details)),
    runtime.redactor.redactValue(toStoredMessage({ role: 'assistant', content: [{ type: 'text', text: reply }] }, run.runId, details)),
  ]);
  return { ...finishRun(run.emitter, run.meter, { status: 'completed', haltReason: 'final_answer', answer: reply, error: null, startedAt: started }), steps: [], warnings: [] };
}
