import { z } from 'zod';

/** A cost as every API answer gives it: unknown (null) when any model call had no known price, with the known part beside. */
export const apiCostShape = {
  cost_usd: z.number().nonnegative().nullable().describe('US dollars; null when any model call had no known price (never a guess).'),
  cost_usd_known: z.number().nonnegative().describe('US dollars of the model calls with a known price: all of cost_usd when it is known.'),
  unpriced_calls: z.number().int().nonnegative().describe('Model calls whose model has no known price.'),
};
