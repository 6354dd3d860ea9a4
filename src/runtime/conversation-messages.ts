import type { ModelMessage } from 'ai';
import type { MessageRecord, NewMessage, TokenUsage } from '../core/index.js';

function toolCallIdsOf(message: ModelMessage): string[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((part) => ('toolCallId' in part && typeof part.toolCallId === 'string' ? [part.toolCallId] : []));
}

/** A loop message as the store keeps it. */
export function toStoredMessage(message: ModelMessage, runId: string, details: { model: string | null; tokens: TokenUsage | null }): NewMessage {
  return {
    runId,
    role: message.role,
    content: message.content,
    toolCallIds: toolCallIdsOf(message),
    model: details.model,
    inputTokens: details.tokens?.input ?? null,
    outputTokens: details.tokens?.output ?? null,
  };
}

/** A stored message as the loop sends it again. */
export function toModelMessage(record: MessageRecord): ModelMessage {
  return { role: record.role, content: record.content } as ModelMessage;
}
