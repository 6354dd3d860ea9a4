import type { TokenUsage } from '../../core/index.js';
import { addCosts } from '../../llm/index.js';

/** Calls, tokens and dollars of one model (or one synthesized tool). */
export interface UsageTotals {
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  /** Null when any call had no known price. */
  readonly cost_usd: number | null;
}

/** Nothing spent yet: the start of every sum. */
export const NO_USAGE: UsageTotals = Object.freeze({ llm_calls: 0, tokens: Object.freeze({ input: 0, output: 0 }), cost_usd: 0 });

/** `left` and `right` added up; a missing `left` is nothing spent. An unknown price on either side makes the cost unknown. */
export function sumUsage(left: UsageTotals | undefined, right: UsageTotals): UsageTotals {
  const base = left ?? NO_USAGE;
  return {
    llm_calls: base.llm_calls + right.llm_calls,
    tokens: { input: base.tokens.input + right.tokens.input, output: base.tokens.output + right.tokens.output },
    cost_usd: addCosts(base.cost_usd, right.cost_usd),
  };
}
