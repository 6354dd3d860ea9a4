import { APICallError, RetryError, jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { ModelCallError, RunCancelledError, ForgeError } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import type { ToolSpecification } from '../tools/index.js';

export interface ModelToolCall {
  readonly callId: string;
  readonly name: string;
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

export function toolSetFrom(specifications: readonly ToolSpecification[]): ToolSet {
  const entries = specifications.map((specification) => [
    specification.name,
    tool({ description: specification.description, inputSchema: jsonSchema(specification.inputSchema) }),
  ]);
  return Object.fromEntries(entries) as ToolSet;
}

function statusCodeOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (RetryError.isInstance(error)) return statusCodeOf(error.lastError);
  return undefined;
}

function messageOf(error: unknown): string {
  if (RetryError.isInstance(error)) return `${messageOf(error.lastError)} (after ${error.errors.length} attempts)`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * One streamed model call: sends system, history and tool schemas; returns the text and the tool calls
 * the model asked for (tools are executed by our loop, never by the SDK). Provider failures — HTTP
 * errors, rate limits after retries, a stream dropped mid-way — become a ModelCallError.
 */
export async function streamModelTurn(options: {
  model: ResolvedModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  maxRetries: number;
  onTextDelta?: (text: string) => void;
}): Promise<ModelTurn> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let finishReason = 'unknown';
  let finished = false;
  try {
    const result = streamText({
      model: options.model.model,
      system: options.system,
      messages: options.messages,
      tools: options.tools,
      abortSignal: options.signal,
      maxRetries: options.maxRetries,
      // Errors arrive as `error` parts below and become a ModelCallError; the SDK's default logs them to the console.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          options.onTextDelta?.(part.text);
          break;
        case 'tool-call':
          toolCalls.push({ callId: part.toolCallId, name: part.toolName, input: part.input });
          break;
        case 'finish':
          inputTokens = part.totalUsage.inputTokens ?? 0;
          outputTokens = part.totalUsage.outputTokens ?? 0;
          finishReason = part.finishReason;
          finished = true;
          break;
        case 'error':
          throw part.error;
        case 'abort':
          throw new RunCancelledError(String(options.signal.reason ?? 'the model call was aborted'));
        default:
          break;
      }
    }
  } catch (error) {
    if (ForgeError.isInstance(error)) throw error;
    if (options.signal.aborted) throw new RunCancelledError(String(options.signal.reason ?? 'aborted'));
    throw new ModelCallError(options.model.slug, messageOf(error), statusCodeOf(error), error);
  }
  if (!finished || finishReason === 'error' || (finishReason === 'other' && text === '' && toolCalls.length === 0)) {
    throw new ModelCallError(options.model.slug, 'the response stream ended before the model finished (connection dropped mid-stream?)');
  }
  return { text, toolCalls, inputTokens, outputTokens, finishReason };
}
