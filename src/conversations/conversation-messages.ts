import type { LoopMessage } from '../engine/index.js';
import type { MessageRecord, NewMessage, TokenUsage } from '../core/index.js';

function toolCallIdsOf(message: LoopMessage): string[] {
  return message.content.flatMap((part) => ('toolCallId' in part && typeof part.toolCallId === 'string' ? [part.toolCallId] : []));
}

/** A loop message as the store keeps it. */
export function toStoredMessage(message: LoopMessage, runId: string, details: { model: string | null; tokens: TokenUsage | null }): NewMessage {
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

/** A stored message as the loop sends it again (plain-text content is turned into a text part). */
export function toLoopMessage(record: MessageRecord): LoopMessage {
  const content = typeof record.content === 'string' ? [{ type: 'text', text: record.content }] : record.content;
  return { role: record.role, content } as LoopMessage;
}
