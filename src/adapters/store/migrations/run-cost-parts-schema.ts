import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 30: the known part of a run's cost. `priced_cost_usd` is what its priced model calls add up
 * to and `unpriced_calls` how many had no known price, so a run (or a sum of runs) whose `cost_usd` is
 * unknown (NULL) still shows what is known. Runs stored before get both from their model calls.
 */
export function runCostPartsSchema(_dialect: SqlDialect): Migration {
  return {
    version: 30,
    name: 'run-cost-parts',
    up: [
      'ALTER TABLE runs ADD COLUMN priced_cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0',
      'ALTER TABLE runs ADD COLUMN unpriced_calls BIGINT NOT NULL DEFAULT 0',
      `UPDATE runs SET
        priced_cost_usd = COALESCE((SELECT SUM(model_calls.cost_usd) FROM model_calls WHERE model_calls.run_id = runs.id), 0),
        unpriced_calls = (SELECT COUNT(*) FROM model_calls WHERE model_calls.run_id = runs.id AND model_calls.cost_usd IS NULL)`,
    ],
  };
}
