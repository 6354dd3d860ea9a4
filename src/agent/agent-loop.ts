import type { LanguageModelV3ToolResultPart } from '@ai-sdk/provider';
import {
  RunCancelledError,
  describeError,
  type ApprovalGate,
  type ErrorInfo,
  type HaltReason,
  type Policy,
  type RunStatus,
  type ToolContext,
  type TokenUsage,
} from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import { ModelInputHasher, type CostMeter, type ResolvedModel } from '../llm/index.js';
import { dispatchToolCall, type DispatchOutcome, type ToolRegistry } from '../tools/index.js';
import { finishRun, type RunSummary } from './finish-run.js';
import { providerToolsFrom, streamMeteredModelTurn, type LoopMessage, type ModelToolCall } from './model-turn.js';
import { buildSystemPrompt } from './system-prompt.js';

export const DEFAULT_MAX_ITERATIONS = 10;

export interface AgentRunOptions {
  readonly task: string;
  readonly model: ResolvedModel;
  /** The catalog the run takes its tools from, once, when it starts (see `ToolRegistry.snapshot`). */
  readonly registry: ToolRegistry;
  /**
   * The tools this run may use, by exact name; default every tool in the catalog when the run starts.
   * A name the catalog lacks is an `UnknownToolsError` (listing what exists) before any model call.
   */
  readonly tools?: readonly string[];
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  /** What tools may use besides their input (the guarded fetch, a utility model). */
  readonly toolContext: Omit<ToolContext, 'callId' | 'runId' | 'signal'>;
  /** Replaces the default system prompt; the untrusted-content rule is always appended. */
  readonly system?: string;
  /** Earlier messages of the conversation this run continues (already bounded). */
  readonly history?: readonly LoopMessage[];
  readonly conversationId?: string | null;
  readonly maxIterations?: number;
  readonly signal?: AbortSignal;
  /** Provider retries on 429/5xx before the call counts as failed. */
  readonly maxRetries?: number;
  /** Receives new messages as soon as they exist, so a crash loses nothing already said. */
  readonly onMessages?: (messages: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null }) => Promise<void>;
}

/** One tool call as reported in `--json` output and the API. */
export interface RunStep {
  readonly call_id: string;
  readonly iteration: number;
  readonly tool: string;
  readonly input: unknown;
  readonly ok: boolean;
  readonly output: string;
  readonly error: ErrorInfo | null;
  readonly duration_ms: number;
}

export interface AgentRunResult extends RunSummary {
  readonly steps: RunStep[];
}

function toolResultPart(call: ModelToolCall, outcome: DispatchOutcome): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.callId,
    toolName: call.name,
    output: outcome.ok ? { type: 'text', value: outcome.output } : { type: 'error-text', value: outcome.output },
  };
}

function assistantMessage(text: string, calls: readonly ModelToolCall[]): LoopMessage {
  const content = [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.callId, toolName: call.name, input: call.input ?? {} })),
  ];
  return { role: 'assistant', content };
}

/**
 * The ReAct loop: take the run's tools from the catalog (an immutable set: the model is shown these and
 * dispatch resolves calls among these alone, whatever the catalog does meanwhile), ask the model, run
 * the tool calls it returns (in parallel) through dispatch, feed the results back with their tool-call
 * ids, and repeat until the model answers without calling a tool or the iteration cap is reached. Tool
 * failures go back to the model; model failures and cancellation end the run with a recorded reason.
 * Never throws for run-level failures: the result (and the `run-end` event) says what happened; a tool
 * list naming unknown tools throws `UnknownToolsError` before the run starts.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const started = performance.now();
  const { emitter, meter } = options;
  const tools = options.registry.snapshot(options.tools);
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const signal = options.signal ?? new AbortController().signal;
  const system = buildSystemPrompt(options.system);
  const messages: LoopMessage[] = [...(options.history ?? [])];
  const steps: RunStep[] = [];
  let answer: string | null = null;
  let lastText = '';
  let haltReason: HaltReason = 'cap';
  let error: ErrorInfo | null = null;

  emitter.emit({
    type: 'run-start',
    task: options.task,
    model: options.model.slug,
    max_iterations: maxIterations,
    conversation_id: options.conversationId ?? null,
    tools: tools.names(),
  });

  const persist = async (added: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null }) => {
    messages.push(...added);
    await options.onMessages?.(added, details);
  };

  try {
    await persist([{ role: 'user', content: [{ type: 'text', text: options.task }] }], { model: null, tokens: null });
    const providerTools = providerToolsFrom(tools.specifications());
    const inputHasher = new ModelInputHasher();
    for (let iteration = 1; iteration <= maxIterations; iteration += 1) {
      if (signal.aborted) throw new RunCancelledError(String(signal.reason ?? 'cancelled'));
      const turn = await streamMeteredModelTurn({
        model: options.model,
        system,
        messages,
        tools: providerTools,
        signal,
        maxRetries: options.maxRetries ?? 2,
        emitter,
        meter,
        purpose: 'agent-step',
        iteration,
        inputHasher,
      });
      const { record } = turn;
      if (turn.text !== '') {
        lastText = turn.text;
        emitter.emit({ type: 'assistant-text', iteration, text: turn.text });
      }
      await persist([assistantMessage(turn.text, turn.toolCalls)], { model: record.model, tokens: { input: record.inputTokens, output: record.outputTokens } });
      if (turn.toolCalls.length === 0) {
        answer = turn.text;
        haltReason = 'final_answer';
        break;
      }
      const outcomes = await Promise.all(
        turn.toolCalls.map((call) =>
          dispatchToolCall(
            { name: call.name, input: call.input, callId: call.callId, iteration },
            { tools, policy: options.policy, approvals: options.approvals, emitter, context: { ...options.toolContext, runId: emitter.runId, signal } },
          ),
        ),
      );
      outcomes.forEach((outcome) => {
        steps.push({
          call_id: outcome.callId,
          iteration,
          tool: outcome.tool,
          input: outcome.input,
          ok: outcome.ok,
          output: outcome.output,
          error: outcome.ok ? null : outcome.error,
          duration_ms: outcome.durationMs,
        });
      });
      await persist([{ role: 'tool', content: turn.toolCalls.map((call, index) => toolResultPart(call, outcomes[index]!)) }], { model: null, tokens: null });
    }
  } catch (caught) {
    error = describeError(caught);
    haltReason = caught instanceof RunCancelledError || signal.aborted ? 'cancelled' : 'error';
  }

  const status: RunStatus = haltReason === 'final_answer' ? 'completed' : haltReason === 'cancelled' ? 'cancelled' : 'failed';
  if (haltReason === 'cap') {
    error = {
      name: 'IterationCapReached',
      message: `The run reached its iteration cap (${maxIterations}) before the model gave a final answer.`,
      hint: 'Raise --max-iterations, or make the task narrower.',
    };
    answer = lastText === '' ? null : lastText;
  }
  return { ...finishRun(emitter, meter, { status, haltReason, answer, error, startedAt: started }), steps };
}
