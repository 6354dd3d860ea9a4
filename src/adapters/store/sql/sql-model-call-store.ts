import type { ModelCallRecord, ModelCallStore } from '../../../core/index.js';
import { insertRowSteps } from './insert-rows.js';
import { readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, WriteStep } from './sql-access.js';

/**
 * The model-call ledger in `model_calls`, listed per run in the order the calls were recorded. An
 * unknown price stays `null`; it is never stored as $0.
 */
export class SqlModelCallStore implements ModelCallStore {
  constructor(private readonly sql: SqlAccess) {}

  async record(call: ModelCallRecord): Promise<void> {
    await this.recordAll([call]);
  }

  async recordAll(calls: readonly ModelCallRecord[]): Promise<void> {
    await this.sql.write(recordModelCallSteps(calls));
  }

  async list(runId: string): Promise<ModelCallRecord[]> {
    const result = await this.sql.read({
      sql: `SELECT run_id, model, purpose, input_tokens, output_tokens, cost_usd, latency_ms, input_hash, ts
            FROM model_calls WHERE run_id = ? ORDER BY id`,
      args: [runId],
    });
    return result.rows.map(modelCallFromRow);
  }
}

export function recordModelCallSteps(calls: readonly ModelCallRecord[]): WriteStep[] {
  return insertRowSteps(
    'model_calls',
    ['run_id', 'model', 'purpose', 'input_tokens', 'output_tokens', 'cost_usd', 'latency_ms', 'input_hash', 'ts'],
    calls.map((call) => [call.runId, call.model, call.purpose, call.inputTokens, call.outputTokens, call.costUsd, call.latencyMs, call.inputHash, call.ts]),
  );
}

function modelCallFromRow(row: SqlRow): ModelCallRecord {
  return {
    runId: readNullableText(row, 'run_id'),
    model: readText(row, 'model'),
    purpose: readText(row, 'purpose'),
    inputTokens: readNumber(row, 'input_tokens'),
    outputTokens: readNumber(row, 'output_tokens'),
    costUsd: readNullableNumber(row, 'cost_usd'),
    latencyMs: readNumber(row, 'latency_ms'),
    inputHash: readText(row, 'input_hash'),
    ts: readText(row, 'ts'),
  };
}
