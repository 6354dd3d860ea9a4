import type { ModelCallRecord, TokenUsage } from '../core/index.js';
import { addCosts, costOf } from './pricing.js';

export interface MeteredCall {
  readonly model: string;
  readonly purpose: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  readonly inputHash: string;
}

export interface CostTotals {
  readonly llmCalls: number;
  readonly tokens: TokenUsage;
  /** Null when any call had no known price. */
  readonly costUsd: number | null;
}

/**
 * Records every model call of one run (or one command): prices it from the pricing table and keeps
 * running totals. Callers emit the `model-call` event from the returned record; persistence follows
 * from the event.
 */
export class CostMeter {
  private llmCalls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private costUsd: number | null = 0;

  /** `carried`: what a resumed run had already spent, so its totals count every call it made. */
  constructor(
    private readonly runId: string | null,
    carried?: CostTotals,
  ) {
    if (carried !== undefined) {
      this.llmCalls = carried.llmCalls;
      this.inputTokens = carried.tokens.input;
      this.outputTokens = carried.tokens.output;
      this.costUsd = carried.costUsd;
    }
  }

  record(call: MeteredCall): ModelCallRecord {
    const costUsd = costOf(call.model, call.inputTokens, call.outputTokens);
    const record: ModelCallRecord = { runId: this.runId, costUsd, ts: new Date().toISOString(), ...call };
    this.llmCalls += 1;
    this.inputTokens += call.inputTokens;
    this.outputTokens += call.outputTokens;
    this.costUsd = addCosts(this.costUsd, costUsd);
    return record;
  }

  totals(): CostTotals {
    return { llmCalls: this.llmCalls, tokens: { input: this.inputTokens, output: this.outputTokens }, costUsd: this.costUsd };
  }
}
