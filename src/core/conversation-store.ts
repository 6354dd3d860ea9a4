import type { OwnedBy } from './run-store.js';

export interface ConversationRecord {
  readonly id: string;
  readonly title: string | null;
  /** The account it belongs to; null when none made it (the CLI, or before accounts): the first admin's. */
  readonly userId: string | null;
  readonly createdAt: string;
}

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One message of a conversation. `content` is the provider-neutral message content (text, tool
 * calls, tool results) exactly as the loop sent or received it, so history replays byte for byte.
 */
export interface MessageRecord {
  readonly id: number;
  readonly conversationId: string;
  readonly runId: string | null;
  readonly role: MessageRole;
  readonly content: unknown;
  /** Tool-call ids this message carries (assistant tool calls or tool results). */
  readonly toolCallIds: readonly string[];
  readonly model: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly createdAt: string;
}

export type NewMessage = Omit<MessageRecord, 'id' | 'conversationId' | 'createdAt'>;

/** Conversations and their messages, in the order they were appended. */
export interface ConversationStore {
  create(options?: { id?: string; title?: string | null; userId?: string | null }): Promise<ConversationRecord>;
  get(id: string): Promise<ConversationRecord | undefined>;
  /** Newest first; only one account's with `ownedBy`. */
  list(options?: { limit?: number; ownedBy?: OwnedBy }): Promise<ConversationRecord[]>;
  /** Appends in order, atomically: either all messages are written or none. */
  appendMessages(conversationId: string, messages: readonly NewMessage[]): Promise<MessageRecord[]>;
  /** Oldest first. With `lastN`, only the newest `lastN` messages (still oldest first). */
  listMessages(conversationId: string, options?: { lastN?: number }): Promise<MessageRecord[]>;
}
