import type { LoopMessage } from './model-turn.js';

/** How much of a conversation's history is sent to the model. */
export interface MemoryBounds {
  /** Keep at most this many of the newest messages. */
  readonly maxMessages: number;
  /** Keep at most about this many tokens of history (estimated at 4 characters per token). */
  readonly maxTokens: number;
}

export const DEFAULT_MEMORY_BOUNDS: MemoryBounds = { maxMessages: 40, maxTokens: 24_000 };

function estimateTokens(message: LoopMessage): number {
  return Math.ceil(JSON.stringify(message.content).length / 4);
}

/**
 * The newest part of a history that fits the bounds and starts at a user message, so a tool result
 * is never sent without the assistant call that asked for it.
 */
export function boundHistory(messages: readonly LoopMessage[], bounds: MemoryBounds = DEFAULT_MEMORY_BOUNDS): LoopMessage[] {
  let start = messages.length;
  let tokens = 0;
  while (start > 0 && messages.length - start < bounds.maxMessages) {
    const cost = estimateTokens(messages[start - 1]!);
    if (tokens + cost > bounds.maxTokens) break;
    tokens += cost;
    start -= 1;
  }
  while (start < messages.length && messages[start]!.role !== 'user') start += 1;
  return messages.slice(start);
}
