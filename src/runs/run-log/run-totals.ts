import type { ForgeEvent, HaltReason, RunStatus, TokenUsage } from '../../core/index.js';
import { SynthesisTally, type SynthesisTotals } from './synthesis-tally.js';
import { callUsage, NO_USAGE, sumUsage, type UsageTotals } from './usage-totals.js';

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
  /** Null when any model call had no known price; `cost_usd_known` and `unpriced_calls` say what is known. */
  readonly cost_usd: number | null;
  readonly cost_usd_known: number;
  readonly unpriced_calls: number;
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

/** Recomputes a run's totals from its events alone (never from the `run-end` summary). */
export function totalsFromEvents(events: readonly ForgeEvent[]): RunTotals {
  let overall: UsageTotals = NO_USAGE;
  let toolCalls = 0;
  let toolErrors = 0;
  let modelErrors = 0;
  // Keyed by tool and model names, which data chooses (a tool may be called `constructor` or
  // `__proto__`): records without a prototype keep every name an ordinary key.
  const tools = Object.create(null) as Record<string, number>;
  const perModel = Object.create(null) as Record<string, UsageTotals>;
  const syntheses = new SynthesisTally();
  for (const event of events) {
    switch (event.type) {
      case 'model-call': {
        const usage = callUsage(event.tokens, event.cost_usd);
        overall = sumUsage(overall, usage);
        perModel[event.model] = sumUsage(perModel[event.model], usage);
        break;
      }
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
      case 'synthesis-end':
        syntheses.add(event);
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
    cost_usd_known: overall.cost_usd_known,
    unpriced_calls: overall.unpriced_calls,
    tool_calls: toolCalls,
    tool_errors: toolErrors,
    model_errors: modelErrors,
    tools,
    per_model: perModel,
    syntheses: syntheses.syntheses(),
    duration_ms: end?.duration_ms ?? null,
  };
}
