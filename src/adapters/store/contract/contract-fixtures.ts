// Records and values the store contract builds its tests from, shared by every aggregate's contract.
import type { ForgeEvent, ModelCallRecord, NewMessage, NewRun } from '../../../core/index.js';

export const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** JSON that breaks naive storage: unicode beyond the BMP, a lone surrogate, escapes, key order, deep nesting. */
export const awkwardJson = {
  zeta: 'first key, out of alphabetical order',
  text: 'naïve café — 日本語 — עברית — 🧪🚀 — "quoted" \\ back\nslash\ttab \u0000 nul',
  lone: '\ud800',
  '': 'empty key',
  numbers: [0, -2.5, 1e-7, 12345678901234, Number.MAX_SAFE_INTEGER],
  flags: [true, false, null],
  nested: { deeper: { deepest: [[], {}, [{ a: [{ b: 'c' }] }]] } },
};

export function newRun(id: string): NewRun {
  return { id, task: `task of ${id}`, model: 'openai:gpt-4.1-mini', conversationId: null };
}

export function runStartEvent(runId: string, seq: number): ForgeEvent {
  return {
    ts: '2026-01-02T03:04:05.678Z',
    run_id: runId,
    seq,
    type: 'run-start',
    task: 'résumé the 日本語 page',
    model: 'openai:gpt-4.1-mini',
    max_iterations: 10,
    conversation_id: null,
    tools: ['web_search', 'fetch_page'],
  };
}

export function toolCallStartEvent(runId: string, seq: number, input: unknown): ForgeEvent {
  return { ts: '2026-01-02T03:04:06.000Z', run_id: runId, seq, type: 'tool-call-start', call_id: `call-${seq}`, tool: 'web_search', input, iteration: 1 };
}

export function textEvent(runId: string, seq: number, text: string): ForgeEvent {
  return { ts: '2026-01-02T03:04:07.000Z', run_id: runId, seq, type: 'assistant-text', iteration: 1, text };
}

export function textMessage(role: NewMessage['role'], text: string): NewMessage {
  return { runId: null, role, content: text, toolCallIds: [], model: null, inputTokens: null, outputTokens: null };
}

export function modelCall(overrides: Partial<ModelCallRecord>): ModelCallRecord {
  return {
    runId: 'run-1',
    model: 'openai:gpt-4.1-mini',
    purpose: 'loop',
    inputTokens: 1500,
    outputTokens: 220,
    costUsd: 0.00096,
    latencyMs: 640,
    inputHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ts: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export async function rejectionOf(operation: Promise<unknown>): Promise<unknown> {
  try {
    await operation;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the operation to fail, but it succeeded.');
}

export function definedValue<Value>(value: Value | undefined): Value {
  if (value === undefined) throw new Error('Expected a value.');
  return value;
}
