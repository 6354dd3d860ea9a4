import type { ForgeEvent, HaltReason, RunStatus, TokenUsage } from '../core/index.js';
import { addCosts } from '../llm/index.js';

/** What a run log adds up to; the same figures `forge run --json` reports. */
export interface RunTotals {
  readonly run_id: string | null;
  readonly task: string | null;
  readonly model: string | null;
  readonly status: RunStatus | null;
  readonly halt_reason: HaltReason | null;
  readonly answer: string | null;
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  readonly cost_usd: number | null;
  readonly tool_calls: number;
  readonly tool_errors: number;
  readonly model_errors: number;
  readonly tools: Readonly<Record<string, number>>;
  readonly duration_ms: number | null;
}

/** Recomputes a run's totals from its events alone (never from the `run-end` summary). */
export function totalsFromEvents(events: readonly ForgeEvent[]): RunTotals {
  let llmCalls = 0;
  let input = 0;
  let output = 0;
  let cost: number | null = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  let modelErrors = 0;
  const tools: Record<string, number> = {};
  for (const event of events) {
    if (event.type === 'model-call') {
      llmCalls += 1;
      input += event.tokens.input;
      output += event.tokens.output;
      cost = addCosts(cost, event.cost_usd);
    } else if (event.type === 'tool-result' || event.type === 'tool-error') {
      toolCalls += 1;
      tools[event.tool] = (tools[event.tool] ?? 0) + 1;
      if (event.type === 'tool-error') toolErrors += 1;
    } else if (event.type === 'model-error') {
      modelErrors += 1;
    }
  }
  const start = events.find((event) => event.type === 'run-start');
  const end = events.find((event) => event.type === 'run-end');
  return {
    run_id: events[0]?.run_id ?? null,
    task: start?.task ?? null,
    model: start?.model ?? null,
    status: end?.status ?? null,
    halt_reason: end?.halt_reason ?? null,
    answer: end?.answer ?? null,
    llm_calls: llmCalls,
    tokens: { input, output },
    cost_usd: cost,
    tool_calls: toolCalls,
    tool_errors: toolErrors,
    model_errors: modelErrors,
    tools,
    duration_ms: end?.duration_ms ?? null,
  };
}
