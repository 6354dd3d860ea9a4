import type { TokenUsage } from '../../core/index.js';
import { addCostSums } from '../../llm/index.js';

/** Calls, tokens and dollars of one model (or one synthesized tool). */
export interface UsageTotals {
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  /** Null when any call had no known price; `cost_usd_known` is then what the priced calls add up to. */
  readonly cost_usd: number | null;
  readonly cost_usd_known: number;
  /** How many of the calls had no known price. */
  readonly unpriced_calls: number;
}

/** Nothing spent yet: the start of every sum. */
export const NO_USAGE: UsageTotals = Object.freeze({ llm_calls: 0, tokens: Object.freeze({ input: 0, output: 0 }), cost_usd: 0, cost_usd_known: 0, unpriced_calls: 0 });

/** The usage of one model call. */
export function callUsage(tokens: TokenUsage, costUsd: number | null): UsageTotals {
  return { llm_calls: 1, tokens, cost_usd: costUsd, cost_usd_known: costUsd ?? 0, unpriced_calls: costUsd === null ? 1 : 0 };
}

/** `left` and `right` added up; a missing `left` is nothing spent. An unknown price on either side makes the cost unknown. */
export function sumUsage(left: UsageTotals | undefined, right: UsageTotals): UsageTotals {
  const base = left ?? NO_USAGE;
  const cost = addCostSums(
    { costUsd: base.cost_usd, pricedCostUsd: base.cost_usd_known, unpricedCalls: base.unpriced_calls },
    { costUsd: right.cost_usd, pricedCostUsd: right.cost_usd_known, unpricedCalls: right.unpriced_calls },
  );
  return {
    llm_calls: base.llm_calls + right.llm_calls,
    tokens: { input: base.tokens.input + right.tokens.input, output: base.tokens.output + right.tokens.output },
    cost_usd: cost.costUsd,
    cost_usd_known: cost.pricedCostUsd,
    unpriced_calls: cost.unpricedCalls,
  };
}
