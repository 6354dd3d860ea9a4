import type { TokenUsage } from './model.js';

/** Why a run stopped. */
export type HaltReason = 'final_answer' | 'cap' | 'cancelled' | 'error';
export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export type PolicyDecisionKind = 'allow' | 'require_approval' | 'block';

export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly hint?: string;
}

/** Fields every event carries. `seq` is dense and starts at 0 within a run. */
export interface EventEnvelope {
  readonly ts: string;
  readonly run_id: string;
  readonly seq: number;
}

/** Event bodies by type. Names are noun-verb; a lifecycle closes with `end`. */
export interface EventBodies {
  'run-start': { task: string; model: string; max_iterations: number; conversation_id: string | null; tools: string[] };
  'model-call-start': { model: string; iteration: number };
  'model-call': {
    model: string;
    iteration: number;
    purpose: string;
    tokens: TokenUsage;
    cost_usd: number | null;
    latency_ms: number;
    input_hash: string;
    finish_reason: string;
    tool_calls: number;
  };
  'model-error': { model: string; iteration: number; error: ErrorInfo; status_code: number | null; latency_ms: number };
  'assistant-text': { iteration: number; text: string };
  'tool-call-start': { call_id: string; tool: string; input: unknown; iteration: number | null };
  'policy-decision': { call_id: string; tool: string; decision: PolicyDecisionKind; reason: string };
  'tool-result': { call_id: string; tool: string; output: string; truncated: boolean; untrusted: boolean; duration_ms: number };
  'tool-error': { call_id: string; tool: string; error: ErrorInfo; duration_ms: number };
  'run-end': {
    status: RunStatus;
    halt_reason: HaltReason;
    answer: string | null;
    llm_calls: number;
    tokens: TokenUsage;
    cost_usd: number | null;
    error: ErrorInfo | null;
    duration_ms: number;
  };
}

export type EventType = keyof EventBodies;

/** One event of a run, as written to the run log, the store and the bus. */
export type ForgeEvent = { [K in EventType]: EventEnvelope & { readonly type: K } & EventBodies[K] }[EventType];

export type EventOf<K extends EventType> = Extract<ForgeEvent, { type: K }>;

/** Carries events from producers (loops, replays) to consumers (run log, store, UI, API). */
export interface EventBus {
  publish(event: ForgeEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: ForgeEvent) => void): () => void;
}
