import type { LanguageModelV3ToolResultPart } from '@ai-sdk/provider';
import {
  RUN_STATE_VERSION,
  ModelCallRefusedError,
  RunCancelledError,
  callSideEffect,
  describeError,
  type AnyTool,
  type ApprovalGate,
  type ErrorInfo,
  type ForgeEvent,
  type HaltReason,
  type PendingCall,
  type Policy,
  type RunState,
  type RunStatus,
  type ToolContext,
  type TokenUsage,
} from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import { ModelInputHasher, type CostMeter, type ResolvedModel } from '../llm/index.js';
import { CallGuards, dispatchToolCall, recordedOutcome, type CallGuardSettings, type DispatchOutcome, type ToolRegistry, type ToolSet } from '../tools/index.js';
import { finishRun, type RunSummary } from './finish-run.js';
import type { LoopContext, LoopRules, TurnReport } from './loop-rules.js';
import { providerToolsFrom, streamMeteredModelTurn, type LoopMessage, type ModelSettings, type ModelToolCall } from './model-turn.js';
import { buildSystemPrompt } from './system-prompt.js';

/** One tool call as reported in `--json` output and the API. */
export type RunStep = RunState['steps'][number];

/** What the run service gives a loop so its run can be checkpointed and resumed. */
export interface LoopPersistence {
  /** Commits the state (serialized as it is now); resolves once it is committed. */
  checkpoint(state: RunState): Promise<void>;
  /** Commits every event emitted so far (the barrier before a side-effecting call runs). */
  commitEvents(): Promise<void>;
}

/** Where a resumed run goes on from: its last checkpoint and every event it recorded. */
export interface LoopResume {
  readonly state: RunState;
  readonly recorded: readonly ForgeEvent[];
}

export interface LoopOptions {
  readonly task: string;
  readonly model: ResolvedModel;
  /** The catalog the run takes its tools from, once, when it starts (see `ToolRegistry.snapshot`). */
  readonly registry: ToolRegistry;
  /**
   * The catalog tools this run may use, by exact name; default every tool in the catalog when the run
   * starts. A name the catalog lacks is an `UnknownToolsError` (listing what exists) before any model call.
   */
  readonly tools?: readonly string[];
  /** The run's account's own toolbox tools, offered besides the catalog's (a catalog tool of the same name wins). */
  readonly accountTools?: readonly AnyTool[];
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly policy: Policy;
  /**
   * Checks a final answer (an agent's structured outputs): undefined when it is fine; otherwise the
   * message the model gets for its one retry, and the error the run fails with (the answer attached as
   * the run's answer) when the retried answer is wrong too.
   */
  readonly checkAnswer?: (answer: string) => { readonly retryMessage: string; readonly error: Error } | undefined;
  /** Sampling settings for every model turn (an agent definition's temperature and max tokens). */
  readonly modelSettings?: ModelSettings;
  /** Policy scopes narrower than the installation that apply to the run's calls (`agent:<slug>`); the run's own always does. */
  readonly policyScopes?: readonly string[];
  readonly approvals: ApprovalGate;
  /** What tools may use besides their input (the guarded fetch, a utility model). */
  readonly toolContext: Omit<ToolContext, 'callId' | 'runId' | 'signal'>;
  /** How the run's tool calls are guarded (result cache, failure blocking, rate limits, timeouts); none when absent. The loop's own tools are exempt. */
  readonly callGuards?: CallGuardSettings;
  /** Replaces the kind's default system prompt; the untrusted-content rule is always appended. */
  readonly system?: string;
  /** Earlier messages of the conversation this run continues (already bounded). */
  readonly history?: readonly LoopMessage[];
  readonly conversationId?: string | null;
  readonly maxIterations: number;
  readonly signal?: AbortSignal;
  /** Provider retries on 429/5xx before the call counts as failed. */
  readonly maxRetries?: number;
  /** Receives new messages as soon as they exist, so a crash loses nothing already said. */
  readonly onMessages?: (messages: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null }) => Promise<void>;
  /** Checkpoints at every turn boundary and the side-effect barrier; none when absent (a run nobody can resume). */
  readonly persistence?: LoopPersistence;
  /** Go on from a checkpoint instead of starting. */
  readonly resume?: LoopResume;
}

export interface LoopResult extends RunSummary {
  readonly steps: RunStep[];
  readonly warnings: readonly string[];
  /** Set when the run paused for an answer (an approval) instead of ending: the calls it waits on. */
  readonly waiting_on?: readonly string[];
}

function toolResultPart(call: ModelToolCall, outcome: DispatchOutcome): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.callId,
    toolName: call.name,
    output: outcome.ok ? { type: 'text', value: outcome.output } : { type: 'error-text', value: outcome.output },
  };
}

function refusedExtraCall(call: ModelToolCall): LanguageModelV3ToolResultPart {
  return { type: 'tool-result', toolCallId: call.callId, toolName: call.name, output: { type: 'error-text', value: 'Refused: exactly one tool call per turn; only the first was run.' } };
}

function assistantMessage(text: string, calls: readonly ModelToolCall[]): LoopMessage {
  const content = [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.callId, toolName: call.name, input: call.input ?? {} })),
  ];
  return { role: 'assistant', content };
}

function stepOf(outcome: DispatchOutcome, iteration: number): RunStep {
  return {
    call_id: outcome.callId,
    iteration,
    tool: outcome.tool,
    input: outcome.input,
    ok: outcome.ok,
    output: outcome.output,
    error: outcome.ok ? null : outcome.error,
    duration_ms: outcome.durationMs,
  };
}

/** A side-effecting call that started before the process ended and has no recorded result. */
class UnfinishedSideEffectError extends Error {
  constructor(readonly call: PendingCall) {
    super(
      `The call ${call.call_id} to ${call.tool} started before the process running it ended, and its result was never recorded. It may have had its effect, so it is not run again.`,
    );
    this.name = 'RunInterruptedError';
  }
}

/**
 * The one loop every agent-like run uses. Takes the run's tools from the catalog (an immutable set, plus
 * the rules' own tools), asks the model, runs the tool calls it returns through dispatch (in parallel,
 * or only the first when the rules say one call per turn), feeds the results back by call id, and stops
 * on the first stop condition: a final answer, the rules' own (converged), or the cap. Tool failures go
 * back to the model; model failures and cancellation end the run with a recorded reason.
 *
 * With `persistence`, the run's `RunState` is committed at every turn boundary: after the model's turn
 * (its calls pending) and before any of them runs, and again once their results are in. A side-effecting
 * call's `tool-call-start` is committed before the tool runs. A resumed run (`resume`) never runs a
 * completed call again: each pending call is answered from its recorded result, run when it never
 * started, or, when it had side effects and started without a recorded result, ends the run `failed`
 * (`interrupted`) naming it. A call waiting for an approval pauses the run (no `run-end`: it resumes
 * once answered). Never throws for run-level failures: the result (and `run-end`) says what happened.
 */
export async function runLoop(options: LoopOptions, makeRules: (context: LoopContext) => LoopRules): Promise<LoopResult> {
  const started = performance.now();
  const { emitter, meter, resume } = options;
  const cap = options.maxIterations;
  const signal = options.signal ?? new AbortController().signal;
  const catalogTools = options.registry.snapshot(resume?.state.tools ?? options.tools, options.accountTools);
  const context: { turn: number; readonly cap: number; tools: ToolSet } = { turn: resume?.state.turn ?? 0, cap, tools: catalogTools };
  const rules = makeRules(context);
  context.tools = catalogTools.with(rules.ownTools);
  const system = buildSystemPrompt(options.system ?? resume?.state.system ?? undefined);
  const messages: LoopMessage[] = resume === undefined ? [...(options.history ?? [])] : (resume.state.messages as unknown as LoopMessage[]);
  const steps: RunStep[] = resume === undefined ? [] : [...resume.state.steps];
  let lastText = resume?.state.last_text ?? '';
  let answer: string | null = null;
  let answerRetried = false;
  let haltReason: HaltReason = 'cap';
  let error: ErrorInfo | null = null;
  let waitingOn: string[] = [];
  // The history only grows, so each model call hashes only what was added since the last one.
  const inputHasher = new ModelInputHasher();

  const state = (pending: readonly PendingCall[]): RunState => {
    const totals = meter.totals();
    return {
      format: 'forge-run-state',
      version: RUN_STATE_VERSION,
      run_id: emitter.runId,
      kind: rules.kind,
      task: options.task,
      model: runModelOf(options),
      system: options.system ?? resume?.state.system ?? null,
      conversation_id: options.conversationId ?? resume?.state.conversation_id ?? null,
      tools: catalogTools.names(),
      max_iterations: cap,
      turn: context.turn,
      messages: messages as unknown as RunState["messages"],
      steps,
      pending: [...pending],
      last_text: lastText,
      totals: { llm_calls: totals.llmCalls, input_tokens: totals.tokens.input, output_tokens: totals.tokens.output, cost_usd: totals.costUsd },
      converge: rules.save(),
    };
  };
  // Checkpoints commit in the order they are taken (one writer). Only the one before a turn whose calls
  // may write is waited for (the barrier); the others commit while the loop goes on (a read-only turn
  // lost in a crash is asked again on resume), and a failure of any surfaces at the next barrier or at
  // the end of the run.
  // Only the newest state matters: a checkpoint taken while an earlier one still waits for the writer
  // replaces it, so a fast loop commits one state per write instead of one per turn.
  let newest: RunState | undefined;
  let saving: Promise<void> | undefined;
  const saveNewest = async (persistence: LoopPersistence) => {
    try {
      while (newest !== undefined) {
        const next = newest;
        newest = undefined;
        await persistence.checkpoint(next);
      }
    } finally {
      // In the same step as the last check above: a checkpoint taken after it starts a new saver.
      saving = undefined;
    }
  };
  const checkpoint = async (pending: readonly PendingCall[], options_: { wait: boolean }) => {
    const persistence = options.persistence;
    if (persistence === undefined) return;
    // A snapshot: the loop goes on adding messages and steps while this waits for the writer.
    newest = { ...state(pending), messages: [...messages] as unknown as RunState['messages'], steps: [...steps] };
    saving ??= saveNewest(persistence);
    saving.catch(() => undefined);
    // At the barrier the events so far are committed too; otherwise they follow on the recorder's own
    // schedule (the run log holds them at once, and a restart stores what the store missed before any resume).
    if (options_.wait) await Promise.all([saving, persistence.commitEvents()]);
  };
  const settleSaves = async () => {
    while (saving !== undefined) await saving;
  };
  const persist = async (added: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null } = { model: null, tokens: null }) => {
    messages.push(...added);
    await options.onMessages?.(added, details);
  };
  const guards = options.callGuards === undefined ? undefined : new CallGuards(options.callGuards, { exempt: rules.ownTools.map((tool) => tool.name) });
  const dispatch = (call: ModelToolCall) =>
    dispatchToolCall(
      { name: call.name, input: call.input, callId: call.callId, iteration: context.turn },
      {
        tools: context.tools,
        policy: options.policy,
        ...(options.policyScopes === undefined ? {} : { policyScopes: options.policyScopes }),
        approvals: options.approvals,
        emitter,
        context: { ...options.toolContext, runId: emitter.runId, signal },
        ...(options.persistence === undefined ? {} : { beforeSideEffect: options.persistence.commitEvents }),
        ...(guards === undefined ? {} : { guards }),
      },
    );
  /** Whether a call may have side effects (then its turn's checkpoint is committed before any call runs). */
  const mayWrite = (call: ModelToolCall): boolean => {
    try {
      return callSideEffect(context.tools.resolve(call.name), call.input) === 'write';
    } catch {
      return false; // A call to no tool runs nothing: dispatch refuses it.
    }
  };
  /** A pending call of a resumed run: its recorded result, a re-run when nothing it did can have mattered, or never. */
  const settle = async (call: ModelToolCall): Promise<DispatchOutcome> => {
    const recorded = recordedOutcome(resume?.recorded ?? [], call.callId);
    if (recorded !== undefined) return recorded;
    const startedBefore = resume?.recorded.some((event) => event.type === 'tool-call-start' && event.call_id === call.callId) === true;
    const waitedForApproval = resume?.recorded.some((event) => event.type === 'approval-request' && event.call_id === call.callId) === true;
    if (startedBefore && !waitedForApproval) {
      const tool = context.tools.get(call.name);
      if (tool === undefined || callSideEffect(tool, call.input) === 'write') throw new UnfinishedSideEffectError({ call_id: call.callId, tool: call.name, input: call.input });
    }
    return dispatch(call);
  };

  /** Runs (or settles) a turn's calls, feeds the results back, and applies the stop conditions. True: stop. */
  const finishTurn = async (calls: readonly ModelToolCall[], run: (call: ModelToolCall) => Promise<DispatchOutcome>): Promise<boolean> => {
    const toRun = rules.oneCallPerTurn ? calls.slice(0, 1) : calls;
    const outcomes = await Promise.all(toRun.map(run));
    const waiting = outcomes.filter((outcome) => !outcome.ok && outcome.awaitingApproval === true);
    if (waiting.length > 0) {
      waitingOn = waiting.map((outcome) => outcome.callId);
      return true;
    }
    steps.push(...outcomes.map((outcome) => stepOf(outcome, context.turn)));
    const report: TurnReport = { turn: context.turn, calls, outcomes };
    const results = calls.map((call, index) => (index < outcomes.length ? toolResultPart(call, outcomes[index]!) : refusedExtraCall(call)));
    const after = await rules.afterTools(report);
    await persist([{ role: 'tool', content: results }, ...(after === null ? [] : [{ role: 'user' as const, content: [{ type: 'text' as const, text: after }] }])]);
    const verdict = rules.afterTurn(report);
    // The turn's results are in its events, which a resume reads; only rules with state of their own
    // (the convergence plan and streak) need the boundary after the results checkpointed too.
    if (rules.save() !== null) await checkpoint([], { wait: false });
    if (verdict === undefined) return false;
    haltReason = verdict.halt;
    if (verdict.halt === 'final_answer') answer = verdict.answer;
    return true;
  };

  if (resume === undefined) {
    emitter.emit({ type: 'run-start', task: options.task, model: options.model.slug, max_iterations: cap, conversation_id: options.conversationId ?? null, tools: context.tools.names() });
  } else {
    emitter.emit({ type: 'run-resume', turn: resume.state.turn, pending: resume.state.pending.map((call) => call.call_id) });
  }

  try {
    let stop = false;
    if (resume === undefined) {
      await persist([{ role: 'user', content: [{ type: 'text', text: await rules.firstMessage(options.task) }] }]);
      await checkpoint([], { wait: false });
    } else if (resume.state.pending.length > 0) {
      const pending = resume.state.pending.map((call) => ({ callId: call.call_id, name: call.tool, input: call.input }));
      stop = await finishTurn(pending, settle);
    }
    while (!stop && context.turn < cap) {
      if (signal.aborted) throw new RunCancelledError(String(signal.reason ?? 'cancelled'));
      context.turn += 1;
      const turn = await streamMeteredModelTurn({
        model: options.model,
        system,
        messages,
        tools: providerToolsFrom(context.tools.specifications()),
        toolChoice: rules.toolChoice,
        ...(rules.oneCallPerTurn ? { singleToolCall: true as const } : {}),
        ...(options.modelSettings === undefined ? {} : { settings: options.modelSettings }),
        signal,
        maxRetries: options.maxRetries ?? 2,
        emitter,
        meter,
        inputHasher,
        purpose: 'agent-step',
        iteration: context.turn,
        liveText: true,
      });
      if (turn.text !== '') {
        lastText = turn.text;
        emitter.emit({ type: 'assistant-text', iteration: context.turn, text: turn.text });
      }
      await persist([assistantMessage(turn.text, turn.toolCalls)], { model: turn.record.model, tokens: { input: turn.record.inputTokens, output: turn.record.outputTokens } });
      if (turn.toolCalls.length === 0 && rules.noCalls === 'final-answer') {
        const problem = options.checkAnswer?.(turn.text);
        if (problem !== undefined && !answerRetried) {
          answerRetried = true;
          await persist([{ role: 'user', content: [{ type: 'text', text: problem.retryMessage }] }]);
          await checkpoint([], { wait: false });
          continue;
        }
        answer = turn.text;
        if (problem !== undefined) throw problem.error;
        haltReason = 'final_answer';
        break;
      }
      if (turn.toolCalls.length === 0) {
        await persist([{ role: 'user', content: [{ type: 'text', text: `You called no tool. ${(await rules.afterTools({ turn: context.turn, calls: [], outcomes: [] })) ?? ''}`.trim() }] }]);
        stop = rules.afterTurn({ turn: context.turn, calls: [], outcomes: [] }) !== undefined;
        if (stop) haltReason = 'converged';
        await checkpoint([], { wait: false });
        continue;
      }
      // The turn's calls are committed as pending before any runs: a resumed run knows which it owes results for.
      await checkpoint(
        turn.toolCalls.map((call) => ({ call_id: call.callId, tool: call.name, input: call.input })),
        { wait: turn.toolCalls.some(mayWrite) },
      );
      stop = await finishTurn(turn.toolCalls, dispatch);
    }
    await settleSaves();
  } catch (caught) {
    error = describeError(caught);
    haltReason =
      caught instanceof UnfinishedSideEffectError ? 'interrupted'
      : caught instanceof ModelCallRefusedError ? caught.haltReason
      : caught instanceof RunCancelledError || signal.aborted ? 'cancelled'
      : 'error';
  }

  const warnings = [...rules.warnings()];
  if (waitingOn.length > 0 && error === null) {
    emitter.emit({ type: 'run-pause', reason: 'approval', waiting_on: waitingOn });
    const totals = meter.totals();
    return {
      run_id: emitter.runId,
      status: 'waiting',
      halt_reason: 'awaiting_approval',
      answer: null,
      llm_calls: totals.llmCalls,
      tokens: totals.tokens,
      cost_usd: totals.costUsd,
      cost_usd_known: totals.pricedCostUsd,
      unpriced_calls: totals.unpricedCalls,
      error: null,
      duration_ms: performance.now() - started,
      steps,
      warnings,
      waiting_on: waitingOn,
    };
  }
  if (haltReason === 'cap') {
    const halt = rules.capHalt(cap);
    error = halt.error;
    if (halt.warning !== undefined) warnings.unshift(halt.warning);
    answer = rules.noCalls === 'final-answer' && lastText !== '' ? lastText : null;
  }
  const status: RunStatus = haltReason === 'final_answer' || haltReason === 'converged' ? 'completed' : haltReason === 'cancelled' ? 'cancelled' : 'failed';
  return { ...finishRun(emitter, meter, { status, haltReason, answer, error, startedAt: started, warnings }), steps, warnings };
}

/** The model as the run's state keeps it: all a resume needs to call the same model the same way. */
function runModelOf(options: LoopOptions): RunState['model'] {
  const settings = options.modelSettings ?? {};
  return {
    slug: options.model.slug,
    base_url: options.model.baseUrl ?? null,
    settings: {
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.maxOutputTokens === undefined ? {} : { max_output_tokens: settings.maxOutputTokens }),
    },
  };
}
