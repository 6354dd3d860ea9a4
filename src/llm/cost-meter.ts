import type { ModelCallCheck, ModelCallRecord, TokenUsage } from '../core/index.js';
import { addCallCost, NO_COST, type CostSum } from './cost-sum.js';
import { costOf } from './pricing.js';

export interface MeteredCall {
  readonly model: string;
  readonly purpose: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  readonly inputHash: string;
}

/** Model calls, tokens and what they cost (`costUsd` null when any call had no known price; see `CostSum`). */
export interface CostTotals extends CostSum {
  readonly llmCalls: number;
  readonly tokens: TokenUsage;
}

/** Who a meter's calls are for, and the checks each call passes before it is made. */
export interface MeterAdmission {
  /** The account whose run makes the calls; null for the CLI's runs. */
  readonly userId: string | null;
  /** The service key that started the run, when one did. */
  readonly apiKeyId: string | null;
  /** Every check a call must pass first, in order (see `ModelCallCheck`); the run service gives each run its own. */
  readonly checks: readonly ModelCallCheck[];
}

/**
 * Admits and records every model call of one run (or one command): `admit` passes the call through
 * the run's pre-call checks before it is made (the one seam for run limits, account quotas and
 * budgets), `record` prices it from the pricing table and keeps running totals. Callers emit the
 * `model-call` event from the returned record; persistence follows from the event.
 */
export class CostMeter {
  private llmCalls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cost: CostSum = NO_COST;

  /** `carried`: what a resumed run had already spent, so its totals count every call it made. */
  constructor(
    private readonly runId: string | null,
    carried?: CostTotals,
    private readonly admission: MeterAdmission = { userId: null, apiKeyId: null, checks: [] },
  ) {
    if (carried !== undefined) {
      this.llmCalls = carried.llmCalls;
      this.inputTokens = carried.tokens.input;
      this.outputTokens = carried.tokens.output;
      this.cost = { costUsd: carried.costUsd, pricedCostUsd: carried.pricedCostUsd, unpricedCalls: carried.unpricedCalls };
    }
  }

  /**
   * Passes a model call about to be made through every pre-call check, in order; throws what a check
   * throws (a `ModelCallRefusedError` names the halt reason), so the call is never made. Every metered
   * call site (the loop's model turns, utility models) calls it first.
   */
  async admit(call: { readonly model: string; readonly purpose: string }): Promise<void> {
    for (const check of this.admission.checks) {
      await check.check({ runId: this.runId, userId: this.admission.userId, apiKeyId: this.admission.apiKeyId, model: call.model, purpose: call.purpose, spent: this.totals() });
    }
  }

  record(call: MeteredCall): ModelCallRecord {
    const costUsd = costOf(call.model, call.inputTokens, call.outputTokens);
    const record: ModelCallRecord = { runId: this.runId, costUsd, ts: new Date().toISOString(), ...call };
    this.llmCalls += 1;
    this.inputTokens += call.inputTokens;
    this.outputTokens += call.outputTokens;
    this.cost = addCallCost(this.cost, costUsd);
    return record;
  }

  totals(): CostTotals {
    return { llmCalls: this.llmCalls, tokens: { input: this.inputTokens, output: this.outputTokens }, ...this.cost };
  }
}
