import type { QuotaRecord, QuotaRunCounts, QuotaStore, QuotaSubject, QuotaUsage, QuotaWindows } from '../../../core/index.js';
import { readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, SqlStatement } from './sql-access.js';
import { subjectColumn } from './sql-run-store.js';

const quotaColumns = 'subject_kind, subject_id, user_id, concurrent_runs, runs_per_minute, tokens_per_day, usd_per_day, allow_unpriced_models, updated_at';

/**
 * Quotas in `quotas`, one row per subject, and the counts they are held to, read from `runs` (by
 * `user_id` or `api_key_id`) and `model_calls` (by `ts`, joined to their runs). Unknown prices stay
 * apart: they are counted as calls, never summed as $0.
 */
export class SqlQuotaStore implements QuotaStore {
  constructor(private readonly sql: SqlAccess) {}

  async get(subject: QuotaSubject): Promise<QuotaRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${quotaColumns} FROM quotas WHERE subject_kind = ? AND subject_id = ?`, args: [subject.kind, subject.id] });
    const row = result.rows[0];
    return row === undefined ? undefined : quotaFromRow(row);
  }

  async set(quota: Omit<QuotaRecord, 'updatedAt'>): Promise<QuotaRecord> {
    const record: QuotaRecord = { ...quota, updatedAt: new Date().toISOString() };
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO quotas (${quotaColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (subject_kind, subject_id) DO UPDATE SET user_id = excluded.user_id, concurrent_runs = excluded.concurrent_runs,
                  runs_per_minute = excluded.runs_per_minute, tokens_per_day = excluded.tokens_per_day, usd_per_day = excluded.usd_per_day,
                  allow_unpriced_models = excluded.allow_unpriced_models, updated_at = excluded.updated_at`,
          args: [
            record.subject.kind,
            record.subject.id,
            record.userId,
            record.concurrentRuns,
            record.runsPerMinute,
            record.tokensPerDay,
            record.usdPerDay,
            record.allowUnpricedModels ? 1 : 0,
            record.updatedAt,
          ],
        },
      },
    ]);
    return record;
  }

  async clear(subject: QuotaSubject): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM quotas WHERE subject_kind = ? AND subject_id = ?', args: [subject.kind, subject.id] } }]);
    return result!.rowsAffected === 1;
  }

  async listForUser(userId: string): Promise<QuotaRecord[]> {
    const result = await this.sql.read({ sql: `SELECT ${quotaColumns} FROM quotas WHERE user_id = ? ORDER BY subject_kind, subject_id`, args: [userId] });
    return result.rows.map(quotaFromRow);
  }

  async usage(subject: QuotaSubject, windows: QuotaWindows): Promise<QuotaUsage> {
    const column = subjectColumn(subject.kind);
    const exclude = windows.excludeRunId === undefined ? '' : ' AND c.run_id <> ?';
    const [runs, calls] = await this.sql.readTogether([
      runCountsStatement(subject, windows.runsSince),
      {
        sql: `SELECT COUNT(*) AS llm_calls, COALESCE(SUM(c.input_tokens), 0) AS input_tokens, COALESCE(SUM(c.output_tokens), 0) AS output_tokens,
                     COALESCE(SUM(c.cost_usd), 0) AS priced_usd, COUNT(*) - COUNT(c.cost_usd) AS unpriced_calls
              FROM model_calls c JOIN runs r ON r.id = c.run_id
              WHERE r.${column} = ? AND c.ts >= ?${exclude}`,
        args: [subject.id, windows.callsSince, ...(windows.excludeRunId === undefined ? [] : [windows.excludeRunId])],
      },
    ]);
    const callRow = calls!.rows[0]!;
    return {
      ...runCountsFromRow(runs!.rows[0]!),
      llmCalls: readNumber(callRow, 'llm_calls'),
      tokens: { input: readNumber(callRow, 'input_tokens'), output: readNumber(callRow, 'output_tokens') },
      pricedCostUsd: readNumber(callRow, 'priced_usd'),
      unpricedCalls: readNumber(callRow, 'unpriced_calls'),
    };
  }

  async runCounts(subject: QuotaSubject, runsSince: string): Promise<QuotaRunCounts> {
    return runCountsFromRow((await this.sql.read(runCountsStatement(subject, runsSince))).rows[0]!);
  }
}

/** One row with a subject's runs at once and in the window, each counted on its own index. */
function runCountsStatement(subject: QuotaSubject, runsSince: string): SqlStatement {
  const column = subjectColumn(subject.kind);
  return {
    sql: `SELECT (SELECT COUNT(*) FROM runs WHERE ${column} = ? AND status IN ('queued', 'running')) AS active_runs,
                 (SELECT COUNT(*) FROM runs WHERE ${column} = ? AND created_at >= ?) AS recent_runs,
                 (SELECT MIN(created_at) FROM runs WHERE ${column} = ? AND created_at >= ?) AS oldest_recent`,
    args: [subject.id, subject.id, runsSince, subject.id, runsSince],
  };
}

function runCountsFromRow(row: SqlRow): QuotaRunCounts {
  return { activeRuns: readNumber(row, 'active_runs'), recentRuns: readNumber(row, 'recent_runs'), oldestRecentRunAt: readNullableText(row, 'oldest_recent') };
}

function quotaFromRow(row: SqlRow): QuotaRecord {
  return {
    subject: { kind: readText(row, 'subject_kind') as QuotaSubject['kind'], id: readText(row, 'subject_id') },
    userId: readText(row, 'user_id'),
    concurrentRuns: readNullableNumber(row, 'concurrent_runs'),
    runsPerMinute: readNullableNumber(row, 'runs_per_minute'),
    tokensPerDay: readNullableNumber(row, 'tokens_per_day'),
    usdPerDay: readNullableNumber(row, 'usd_per_day'),
    allowUnpricedModels: readNumber(row, 'allow_unpriced_models') === 1,
    updatedAt: readText(row, 'updated_at'),
  };
}
