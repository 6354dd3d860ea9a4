import { APICallError, type LanguageModelV3FunctionTool, type LanguageModelV3ToolChoice, type LanguageModelV3Message, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { ForgeError, ModelCallError, RunCancelledError, describeError, systemErrorWithin, type ModelCallRecord } from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import { ModelInputHasher, RetriesExhaustedError, callWithRetries, type CostMeter, type ResolvedModel } from '../llm/index.js';
import type { ToolSpecification } from '../tools/index.js';

/** A message of the loop's history, in the AI SDK's provider-neutral prompt format. */
export type LoopMessage = Exclude<LanguageModelV3Message, { role: 'system' }>;

export interface ModelToolCall {
  readonly callId: string;
  readonly name: string;
  /** The parsed arguments; the raw text when the model sent invalid JSON (dispatch then explains). */
  readonly input: unknown;
}

/** What one streamed model call produced. */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly finishReason: string;
}

/** How a model samples: an agent definition's temperature and reply length. */
export interface ModelSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
}

/** The tool list as the provider spec takes it, built once per run. */
export function providerToolsFrom(specifications: readonly ToolSpecification[]): LanguageModelV3FunctionTool[] {
  return specifications.map((specification) => ({
    type: 'function',
    name: specification.name,
    description: specification.description,
    inputSchema: specification.inputSchema as LanguageModelV3FunctionTool['inputSchema'],
  }));
}

// Each vendor names its switch differently; a provider ignores the options of the others. The
// OpenAI-compatible providers (keyed by the name each is created with, camel-cased) pass unknown options into the
// request body as they are, so they get the wire field itself; servers that lack it ignore it, and the
// loop refuses extra calls either way.
const singleToolCallOptions = {
  openai: { parallelToolCalls: false },
  anthropic: { disableParallelToolUse: true },
  openrouter: { parallel_tool_calls: false },
  ollama: { parallel_tool_calls: false },
  openaiCompatible: { parallel_tool_calls: false },
};

function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function statusCodeOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (error instanceof RetriesExhaustedError) return statusCodeOf(error.lastError);
  return undefined;
}

/** A failed call as a `ModelCallError`; one that never reached the vendor says where it tried and what to check. */
function modelCallErrorOf(slug: string, error: unknown): ModelCallError {
  const system = systemErrorWithin(error);
  if (system === undefined) return new ModelCallError(slug, messageOf(error), statusCodeOf(error), error);
  const attempts = error instanceof RetriesExhaustedError ? ` (after ${error.errors.length} attempts)` : '';
  const url = urlOf(error);
  return new ModelCallError(
    slug,
    `its API${url === undefined ? '' : ` at ${url}`} cannot be reached: ${system.message.replace(/\.$/, '')}${attempts}.`,
    undefined,
    error,
    `${system.hint} The address comes from the model slug or the vendor's base URL variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL).`,
  );
}

/** The URL a vendor SDK's failed call was sent to, without its query. */
function urlOf(error: unknown): string | undefined {
  const last = error instanceof RetriesExhaustedError ? error.lastError : error;
  return APICallError.isInstance(last) ? last.url.split('?')[0] : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof RetriesExhaustedError) return `${messageOf(error.lastError)} (after ${error.errors.length} attempts)`;
  if (APICallError.isInstance(error) && error.statusCode !== undefined) return `HTTP ${error.statusCode}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * One streamed model call at the provider-spec level: the AI SDK provider speaks the vendor's wire
 * format; the loop owns the prompt, the tools and their execution. Retryable provider failures
 * (429, 5xx, connection) are retried; anything else — and a stream that ends before the model
 * finished — becomes a ModelCallError.
 */
export async function streamModelTurn(options: {
  model: ResolvedModel;
  system: string;
  messages: readonly LoopMessage[];
  tools: readonly LanguageModelV3FunctionTool[];
  signal: AbortSignal;
  maxRetries: number;
  /** Default `auto`. Convergence mode and synthesis force a call (`required`, or one named tool). */
  toolChoice?: LanguageModelV3ToolChoice;
  /** Asks the provider for at most one tool call per response (vendors' parallel-call switches). */
  singleToolCall?: true;
  /** Sampling settings (an agent definition's); each absent one is the model's default. */
  settings?: ModelSettings;
  /** Called with each piece of text as it arrives, before the call has finished. */
  onTextDelta?: (delta: string) => void;
}): Promise<ModelTurn> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let finishReason: string | undefined;
  let rawFinishReason: string | undefined;
  try {
    const { stream } = await callWithRetries(
      () =>
        options.model.model.doStream({
          prompt: [{ role: 'system', content: options.system }, ...options.messages],
          tools: [...options.tools],
          toolChoice: options.toolChoice ?? { type: 'auto' },
          ...(options.settings?.temperature === undefined ? {} : { temperature: options.settings.temperature }),
          ...(options.settings?.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.settings.maxOutputTokens }),
          ...(options.singleToolCall === true ? { providerOptions: singleToolCallOptions } : {}),
          abortSignal: options.signal,
        }),
      { maxRetries: options.maxRetries, signal: options.signal },
    );
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part: LanguageModelV3StreamPart = value;
      switch (part.type) {
        case 'text-delta':
          text += part.delta;
          if (part.delta !== '') options.onTextDelta?.(part.delta);
          break;
        case 'tool-call':
          toolCalls.push({ callId: part.toolCallId, name: part.toolName, input: parseArguments(part.input) });
          break;
        case 'finish':
          inputTokens = part.usage.inputTokens.total ?? 0;
          outputTokens = part.usage.outputTokens.total ?? 0;
          finishReason = part.finishReason.unified;
          rawFinishReason = part.finishReason.raw;
          break;
        case 'error':
          throw part.error;
        default:
          break;
      }
    }
  } catch (error) {
    if (ForgeError.isInstance(error)) throw error;
    if (options.signal.aborted) throw new RunCancelledError(String(options.signal.reason ?? 'the model call was aborted'));
    throw modelCallErrorOf(options.model.slug, error);
  }
  // Providers report 'other' with no raw reason when the vendor never sent one: the stream was cut.
  if (finishReason === undefined || finishReason === 'error' || (finishReason === 'other' && rawFinishReason === undefined)) {
    throw new ModelCallError(options.model.slug, 'the response stream ended before the model finished (connection dropped mid-stream?)');
  }
  return { text, toolCalls, inputTokens, outputTokens, finishReason };
}

/** A model turn with what the meter recorded for it. */
export interface MeteredModelTurn extends ModelTurn {
  readonly record: ModelCallRecord;
}

/**
 * `streamModelTurn` with its bookkeeping: emits `model-call-start`, then `model-call` with the metered
 * record (or `model-error`, and rethrows), so every model call of every loop and pipeline is logged with
 * model, purpose, tokens, dollars, latency and input hash in one way. A loop passes the same
 * `inputHasher` on every call of a run, so each call hashes only the messages added since the last one.
 * With `liveText`, the text is also published piece by piece as `assistant-text-delta` live events
 * while it streams (for a watcher; nothing records them), for calls whose text a person reads: the
 * agent's own steps, not a synthesis author's code.
 */
export async function streamMeteredModelTurn(
  options: Parameters<typeof streamModelTurn>[0] & { emitter: RunEmitter; meter: CostMeter; purpose: string; iteration: number; inputHasher?: ModelInputHasher; liveText?: true },
): Promise<MeteredModelTurn> {
  const { emitter, model, iteration } = options;
  // The run's pre-call checks (its limits, an account's quota) may refuse the call before anything is sent.
  await options.meter.admit({ model: model.slug, purpose: options.purpose });
  emitter.emit({ type: 'model-call-start', model: model.slug, iteration });
  const started = performance.now();
  const inputHash = (options.inputHasher ?? new ModelInputHasher()).hash({ system: options.system, tools: options.tools.map((tool) => tool.name), messages: options.messages });
  let turn: ModelTurn;
  try {
    turn = await streamModelTurn(
      options.liveText === true ? { ...options, onTextDelta: (delta) => emitter.emitLive({ type: 'assistant-text-delta', iteration, delta }) } : options,
    );
  } catch (error) {
    if (!(error instanceof RunCancelledError)) {
      emitter.emit({
        type: 'model-error',
        model: model.slug,
        iteration,
        error: describeError(error),
        status_code: (error as { statusCode?: number }).statusCode ?? null,
        latency_ms: performance.now() - started,
      });
    }
    throw error;
  }
  const record = options.meter.record({
    model: model.slug,
    purpose: options.purpose,
    inputTokens: turn.inputTokens,
    outputTokens: turn.outputTokens,
    latencyMs: performance.now() - started,
    inputHash,
  });
  emitter.emit({
    type: 'model-call',
    model: record.model,
    iteration,
    purpose: record.purpose,
    tokens: { input: record.inputTokens, output: record.outputTokens },
    cost_usd: record.costUsd,
    latency_ms: record.latencyMs,
    input_hash: inputHash,
    finish_reason: turn.finishReason,
    tool_calls: turn.toolCalls.length,
  });
  return { ...turn, record };
}
