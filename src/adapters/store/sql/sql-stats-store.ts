import type { EventOf, EventType, HaltReason, HaltCount, ModelUsageRecord, RunsSummary, StatsScope, StatsStore, ToolCallCount, ToolCallRecord, ToolUsageRecord } from '../../../core/index.js';
import { insertRowSteps } from './insert-rows.js';
import { readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, SqlStatement, SqlValue, WriteStep } from './sql-access.js';

/** Events per page of `eventsOfTypes`: enough to make few round trips, few enough to keep memory flat. */
const EVENTS_PER_PAGE = 500;

/** The runs a scope covers, as a condition on `runs r`, and its values. */
function runCondition(scope: StatsScope): { readonly sql: string; readonly args: SqlValue[] } {
  return scope.runId === undefined ? { sql: '1 = 1', args: [] } : { sql: 'r.id = ?', args: [scope.runId] };
}

/**
 * The aggregate reads of `forge stats` over the `runs`, `model_calls`, `steps`, `tool_calls` and
 * `events` tables. A summary's four queries read together, so they see the same committed runs. "First" orders
 * compare the run first (its `ordinal`), then the record within it (a model call's `id`, a step's
 * `position`), exactly the order a pass over the runs' events would meet them in.
 */
export class SqlStatsStore implements StatsStore {
  constructor(private readonly sql: SqlAccess) {}

  async summarize(scope: StatsScope = {}): Promise<RunsSummary> {
    const where = runCondition(scope);
    const [halts, models, tools, toolUsage] = await this.sql.readTogether([haltsQuery(where), modelsQuery(where), toolsQuery(where), toolUsageQuery(where)]);
    return {
      halts: halts!.rows.map(haltFromRow),
      models: models!.rows.map(modelUsageFromRow),
      tools: tools!.rows.map(toolCallsFromRow),
      toolUsage: toolUsage!.rows.map(toolUsageFromRow),
    };
  }

  async runLogFiles(scope: StatsScope = {}): Promise<string[]> {
    const where = runCondition(scope);
    const result = await this.sql.read({
      sql: `SELECT r.log_file FROM runs r WHERE r.log_file IS NOT NULL AND ${where.sql} ORDER BY r.ordinal`,
      args: where.args,
    });
    return result.rows.map((row) => readText(row, 'log_file'));
  }

  async *eventsOfTypes<Type extends EventType>(types: readonly Type[], scope: StatsScope = {}): AsyncIterable<EventOf<Type>> {
    if (types.length === 0) return;
    const where = runCondition(scope);
    // Keyset paging on (run ordinal, seq): each page starts after the last event of the one before.
    let after = { ordinal: 0, seq: -1 };
    for (;;) {
      const result = await this.sql.read({
        sql: `SELECT r.ordinal, e.seq, e.body FROM events e JOIN runs r ON r.id = e.run_id
              WHERE e.type IN (${types.map(() => '?').join(', ')}) AND ${where.sql} AND (r.ordinal > ? OR (r.ordinal = ? AND e.seq > ?))
              ORDER BY r.ordinal, e.seq LIMIT ?`,
        args: [...types, ...where.args, after.ordinal, after.ordinal, after.seq, EVENTS_PER_PAGE],
      });
      for (const row of result.rows) yield JSON.parse(readText(row, 'body')) as EventOf<Type>;
      const last = result.rows.at(-1);
      if (result.rows.length < EVENTS_PER_PAGE || last === undefined) return;
      after = { ordinal: readNumber(last, 'ordinal'), seq: readNumber(last, 'seq') };
    }
  }
}

function haltsQuery(where: ReturnType<typeof runCondition>): SqlStatement {
  return {
    sql: `SELECT r.halt_reason, COUNT(*) AS runs FROM runs r WHERE ${where.sql} GROUP BY r.halt_reason ORDER BY MIN(r.ordinal)`,
    args: where.args,
  };
}

// A cost is summed only when every call had a price: `priced_calls` says whether one had none.
function modelsQuery(where: ReturnType<typeof runCondition>): SqlStatement {
  return {
    sql: `WITH usage AS (
            SELECT c.model, COUNT(*) AS llm_calls, SUM(c.input_tokens) AS input_tokens, SUM(c.output_tokens) AS output_tokens,
                   COUNT(c.cost_usd) AS priced_calls, SUM(c.cost_usd) AS cost_usd, MIN(r.ordinal) AS first_run
            FROM model_calls c JOIN runs r ON r.id = c.run_id
            WHERE ${where.sql}
            GROUP BY c.model
          )
          SELECT u.model, u.llm_calls, u.input_tokens, u.output_tokens, u.priced_calls, u.cost_usd,
                 (SELECT MIN(c.id) FROM runs r JOIN model_calls c ON c.run_id = r.id WHERE r.ordinal = u.first_run AND c.model = u.model) AS first_call
          FROM usage u
          ORDER BY u.first_run, first_call`,
    args: where.args,
  };
}

function toolsQuery(where: ReturnType<typeof runCondition>): SqlStatement {
  return {
    sql: `WITH calls AS (
            SELECT s.tool, COUNT(*) AS calls, COUNT(s.error) AS errors, MIN(r.ordinal) AS first_run
            FROM steps s JOIN runs r ON r.id = s.run_id
            WHERE ${where.sql}
            GROUP BY s.tool
          )
          SELECT t.tool, t.calls, t.errors,
                 (SELECT MIN(s.position) FROM runs r JOIN steps s ON s.run_id = r.id WHERE r.ordinal = t.first_run AND s.tool = t.tool) AS first_call
          FROM calls t
          ORDER BY t.first_run, first_call`,
    args: where.args,
  };
}

/**
 * Per tool: counts and byte sums, and the nearest-rank percentiles of the durations of calls the cache
 * did not answer, picked by the database (each such call ranked within its tool by window functions;
 * the ⌈p·n⌉-th is (n·p + 99) / 100 in integer arithmetic), so no duration list leaves it.
 */
function toolUsageQuery(where: ReturnType<typeof runCondition>): SqlStatement {
  return {
    sql: `WITH scoped AS (
            SELECT c.tool, c.ok, c.cached, c.duration_ms, c.bytes_in, c.bytes_out,
                   ROW_NUMBER() OVER (ORDER BY r.ordinal, c.id) AS call_order,
                   ROW_NUMBER() OVER (PARTITION BY c.tool, c.cached ORDER BY c.duration_ms) AS duration_rank,
                   SUM(1 - c.cached) OVER (PARTITION BY c.tool) AS timed_calls
            FROM tool_calls c JOIN runs r ON r.id = c.run_id
            WHERE ${where.sql}
          )
          SELECT tool, COUNT(*) AS calls, SUM(1 - ok) AS failures, SUM(cached) AS cache_hits,
                 MAX(CASE WHEN cached = 0 AND duration_rank = (timed_calls * 50 + 99) / 100 THEN duration_ms END) AS p50_ms,
                 MAX(CASE WHEN cached = 0 AND duration_rank = (timed_calls * 95 + 99) / 100 THEN duration_ms END) AS p95_ms,
                 SUM(bytes_in) AS bytes_in, SUM(bytes_out) AS bytes_out, MIN(call_order) AS first_call
          FROM scoped
          GROUP BY tool
          ORDER BY first_call`,
    args: where.args,
  };
}

/** The steps that insert tool-call analytics rows (inside a run's transaction, with its events). */
export function recordToolCallSteps(calls: readonly ToolCallRecord[]): WriteStep[] {
  return insertRowSteps(
    'tool_calls',
    ['run_id', 'call_id', 'tool', 'ok', 'error_name', 'cached', 'duration_ms', 'bytes_in', 'bytes_out', 'at'],
    calls.map((call) => [call.runId, call.callId, call.tool, call.ok ? 1 : 0, call.errorName, call.cached ? 1 : 0, call.durationMs, call.bytesIn, call.bytesOut, call.at]),
  );
}

function toolUsageFromRow(row: SqlRow): ToolUsageRecord {
  return {
    tool: readText(row, 'tool'),
    calls: readNumber(row, 'calls'),
    failures: readNumber(row, 'failures'),
    cacheHits: readNumber(row, 'cache_hits'),
    p50Ms: readNullableNumber(row, 'p50_ms'),
    p95Ms: readNullableNumber(row, 'p95_ms'),
    bytesIn: readNumber(row, 'bytes_in'),
    bytesOut: readNumber(row, 'bytes_out'),
  };
}

function haltFromRow(row: SqlRow): HaltCount {
  return { haltReason: readNullableText(row, 'halt_reason') as HaltReason | null, runs: readNumber(row, 'runs') };
}

function modelUsageFromRow(row: SqlRow): ModelUsageRecord {
  const llmCalls = readNumber(row, 'llm_calls');
  return {
    model: readText(row, 'model'),
    llmCalls,
    inputTokens: readNumber(row, 'input_tokens'),
    outputTokens: readNumber(row, 'output_tokens'),
    costUsd: readNumber(row, 'priced_calls') < llmCalls ? null : readNullableNumber(row, 'cost_usd'),
    pricedCostUsd: readNullableNumber(row, 'cost_usd') ?? 0,
    unpricedCalls: llmCalls - readNumber(row, 'priced_calls'),
  };
}

function toolCallsFromRow(row: SqlRow): ToolCallCount {
  return { tool: readText(row, 'tool'), calls: readNumber(row, 'calls'), errors: readNumber(row, 'errors') };
}
