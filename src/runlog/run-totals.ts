import type { ForgeEvent, HaltReason, RunStatus, TokenUsage } from '../core/index.js';
import { addCosts } from '../llm/index.js';

/** Calls, tokens and dollars of one model (or one synthesized tool). */
export interface UsageTotals {
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  /** Null when any call had no known price. */
  readonly cost_usd: number | null;
}

/** One synthesized tool's story in a run: how it ended and what it cost. */
export interface SynthesisTotals extends UsageTotals {
  readonly status: 'promoted' | 'failed';
  readonly revisions: number;
  /** Verifications it failed before it was promoted or given up. */
  readonly verification_failures: number;
}

/** What a run log adds up to; the same figures `forge run --json` reports, and more. */
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
  /** Calls per tool name. */
  readonly tools: Readonly<Record<string, number>>;
  /** Model calls, tokens and dollars per model. */
  readonly per_model: Readonly<Record<string, UsageTotals>>;
  /** Tools synthesized in this run, by name. */
  readonly syntheses: Readonly<Record<string, SynthesisTotals>>;
  readonly duration_ms: number | null;
}

function addUsage(total: UsageTotals | undefined, calls: number, tokens: TokenUsage, cost: number | null): UsageTotals {
  return {
    llm_calls: (total?.llm_calls ?? 0) + calls,
    tokens: { input: (total?.tokens.input ?? 0) + tokens.input, output: (total?.tokens.output ?? 0) + tokens.output },
    cost_usd: addCosts(total === undefined ? 0 : total.cost_usd, cost),
  };
}

/** Recomputes a run's totals from its events alone (never from the `run-end` summary). */
export function totalsFromEvents(events: readonly ForgeEvent[]): RunTotals {
  let overall: UsageTotals = { llm_calls: 0, tokens: { input: 0, output: 0 }, cost_usd: 0 };
  let toolCalls = 0;
  let toolErrors = 0;
  let modelErrors = 0;
  // Keyed by tool and model names, which data chooses (a tool may be called `constructor` or
  // `__proto__`): records without a prototype keep every name an ordinary key.
  const tools = Object.create(null) as Record<string, number>;
  const perModel = Object.create(null) as Record<string, UsageTotals>;
  const syntheses = Object.create(null) as Record<string, SynthesisTotals>;
  const verificationFailures = Object.create(null) as Record<string, number>;
  for (const event of events) {
    switch (event.type) {
      case 'model-call':
        overall = addUsage(overall, 1, event.tokens, event.cost_usd);
        perModel[event.model] = addUsage(perModel[event.model], 1, event.tokens, event.cost_usd);
        break;
      case 'tool-result':
      case 'tool-error':
        toolCalls += 1;
        tools[event.tool] = (tools[event.tool] ?? 0) + 1;
        if (event.type === 'tool-error') toolErrors += 1;
        break;
      case 'model-error':
        modelErrors += 1;
        break;
      case 'verification-failed':
        verificationFailures[event.tool] = (verificationFailures[event.tool] ?? 0) + 1;
        break;
      case 'synthesis-end':
        syntheses[event.tool] = {
          status: event.status,
          revisions: event.revisions,
          verification_failures: verificationFailures[event.tool] ?? 0,
          ...addUsage(undefined, event.llm_calls, event.tokens, event.cost_usd),
        };
        break;
      default:
        break;
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
    llm_calls: overall.llm_calls,
    tokens: overall.tokens,
    cost_usd: overall.cost_usd,
    tool_calls: toolCalls,
    tool_errors: toolErrors,
    model_errors: modelErrors,
    tools,
    per_model: perModel,
    syntheses,
    duration_ms: end?.duration_ms ?? null,
  };
}
