/**
 * What some model calls cost, as every total in Forge keeps it: `costUsd` is the whole bill, null as
 * soon as one call had no known price (a partial sum would understate it, and a dollar figure is never
 * guessed); `pricedCostUsd` is what the priced calls add up to, and `unpricedCalls` how many had no
 * price, so an unknown total still shows its known part.
 */
export interface CostSum {
  readonly costUsd: number | null;
  readonly pricedCostUsd: number;
  readonly unpricedCalls: number;
}

/** Nothing spent yet: the start of every sum. */
export const NO_COST: CostSum = Object.freeze({ costUsd: 0, pricedCostUsd: 0, unpricedCalls: 0 });

/** `sum` with one more call of cost `callCost` (null: the call's model has no known price). */
export function addCallCost(sum: CostSum, callCost: number | null): CostSum {
  if (callCost === null) return { costUsd: null, pricedCostUsd: sum.pricedCostUsd, unpricedCalls: sum.unpricedCalls + 1 };
  return { costUsd: sum.costUsd === null ? null : sum.costUsd + callCost, pricedCostUsd: sum.pricedCostUsd + callCost, unpricedCalls: sum.unpricedCalls };
}

/** Two sums added up: unknown when either is. */
export function addCostSums(left: CostSum, right: CostSum): CostSum {
  return {
    costUsd: left.costUsd === null || right.costUsd === null ? null : left.costUsd + right.costUsd,
    pricedCostUsd: left.pricedCostUsd + right.pricedCostUsd,
    unpricedCalls: left.unpricedCalls + right.unpricedCalls,
  };
}

/** What calls of these costs add up to. */
export function costOfCalls(callCosts: Iterable<number | null>): CostSum {
  let sum = NO_COST;
  for (const cost of callCosts) sum = addCallCost(sum, cost);
  return sum;
}

/** A sum as Forge's JSON shows it (`cost_usd`, `cost_usd_known`, `unpriced_calls`), dollars rounded to 1e-6. */
export function costSumJson(sum: CostSum): { cost_usd: number | null; cost_usd_known: number; unpriced_calls: number } {
  return { cost_usd: sum.costUsd === null ? null : roundDollars(sum.costUsd), cost_usd_known: roundDollars(sum.pricedCostUsd), unpriced_calls: sum.unpricedCalls };
}

function roundDollars(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
