import type { ForgeEvent, HaltReason, RunStatus } from './events.js';
import type { ModelCallRecord } from './model.js';

export interface RunRecord {
  readonly id: string;
  readonly task: string;
  readonly model: string;
  readonly status: RunStatus;
  readonly haltReason: HaltReason | null;
  readonly answer: string | null;
  readonly conversationId: string | null;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  /** The error message when the run failed. */
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewRun = Pick<RunRecord, 'id' | 'task' | 'model' | 'conversationId'>;
export type RunUpdate = Partial<Pick<RunRecord, 'status' | 'haltReason' | 'answer' | 'llmCalls' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'error'>>;

/** One tool call of a run, as executed through dispatch. */
export interface StepRecord {
  readonly runId: string;
  /** Position of the step within its run, from 0. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  /** The text fed back to the model (capped), or null when the call failed. */
  readonly output: string | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly createdAt: string;
}

export type NewStep = Omit<StepRecord, 'createdAt'>;

export interface ConversationRecord {
  readonly id: string;
  readonly title: string | null;
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

export interface RunStore {
  create(run: NewRun): Promise<RunRecord>;
  update(id: string, update: RunUpdate): Promise<RunRecord>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  list(options?: { limit?: number }): Promise<RunRecord[]>;
}

export interface EventStore {
  append(event: ForgeEvent): Promise<void>;
  /** In `seq` order. */
  list(runId: string): Promise<ForgeEvent[]>;
}

export interface StepStore {
  record(step: NewStep): Promise<void>;
  /** In `index` order. */
  list(runId: string): Promise<StepRecord[]>;
}

export interface ConversationStore {
  create(options?: { id?: string; title?: string | null }): Promise<ConversationRecord>;
  get(id: string): Promise<ConversationRecord | undefined>;
  list(options?: { limit?: number }): Promise<ConversationRecord[]>;
  /** Appends in order, atomically: either all messages are written or none. */
  appendMessages(conversationId: string, messages: readonly NewMessage[]): Promise<MessageRecord[]>;
  /** Oldest first. With `lastN`, only the newest `lastN` messages (still oldest first). */
  listMessages(conversationId: string, options?: { lastN?: number }): Promise<MessageRecord[]>;
}

export interface ModelCallStore {
  record(call: ModelCallRecord): Promise<void>;
  list(runId: string): Promise<ModelCallRecord[]>;
}

/**
 * The one persistence interface. Implementations (libSQL embedded, PostgreSQL at scale) must pass the
 * same contract suite. Every write is durable when its promise resolves.
 */
export interface Store {
  readonly runs: RunStore;
  readonly events: EventStore;
  readonly steps: StepStore;
  readonly conversations: ConversationStore;
  readonly modelCalls: ModelCallStore;
  close(): Promise<void>;
}
