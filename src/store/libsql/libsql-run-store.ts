import type { Row } from '@libsql/client';
import { NotFoundError, type HaltReason, type NewRun, type RunKind, type RunRecord, type RunStatus, type RunStore, type RunUpdate } from '../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { sqliteLimit } from './sqlite-limit.js';
import { onlyRow, readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlExecutor } from './sql-executor.js';

const runColumns =
  'id, kind, task, model, status, halt_reason, answer, conversation_id, llm_calls, input_tokens, output_tokens, cost_usd, error, owner_pid, owner_host, log_file, created_at, updated_at';

// A fixed list, so only these names ever reach the SQL text, whatever keys an update object carries.
const updatableColumns = {
  status: 'status',
  haltReason: 'halt_reason',
  answer: 'answer',
  llmCalls: 'llm_calls',
  inputTokens: 'input_tokens',
  outputTokens: 'output_tokens',
  costUsd: 'cost_usd',
  error: 'error',
} as const satisfies Record<keyof RunUpdate, string>;

/** Runs in the `runs` table. A new run starts `running` with no calls, no tokens and $0 spent. */
export class LibsqlRunStore implements RunStore {
  constructor(private readonly client: SqlExecutor) {}

  async create(run: NewRun): Promise<RunRecord> {
    const now = new Date().toISOString();
    try {
      const result = await this.client.execute({
        sql: `INSERT INTO runs (id, kind, task, model, status, conversation_id, llm_calls, input_tokens, output_tokens, cost_usd, owner_pid, owner_host, log_file, created_at, updated_at)
              VALUES (?, ?, ?, ?, 'running', ?, 0, 0, 0, 0, ?, ?, ?, ?, ?)
              RETURNING ${runColumns}`,
        args: [run.id, run.kind ?? 'agent', run.task, run.model, run.conversationId, run.owner?.pid ?? null, run.owner?.host ?? null, run.logFile ?? null, now, now],
      });
      return runFromRow(onlyRow(result.rows));
    } catch (error) {
      if (constraintViolation(error) === 'unique') throw new DuplicateRecordError('run', { id: run.id });
      throw error;
    }
  }

  async update(id: string, update: RunUpdate): Promise<RunRecord> {
    const assignments: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [field, column] of Object.entries(updatableColumns) as [keyof RunUpdate, string][]) {
      const value = update[field];
      if (value !== undefined) {
        assignments.push(`${column} = ?`);
        values.push(value);
      }
    }
    const result = await this.client.execute({
      sql: `UPDATE runs SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE id = ? RETURNING ${runColumns}`,
      args: [...values, new Date().toISOString(), id],
    });
    const row = result.rows[0];
    if (row === undefined) throw new NotFoundError('run', id, 'Create the run with store.runs.create before updating it.');
    return runFromRow(row);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const result = await this.client.execute({ sql: `SELECT ${runColumns} FROM runs WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : runFromRow(row);
  }

  async list(options: { limit?: number; statuses?: readonly RunStatus[] } = {}): Promise<RunRecord[]> {
    const statuses = options.statuses ?? [];
    const filter = statuses.length === 0 ? '' : `WHERE status IN (${statuses.map(() => '?').join(', ')})`;
    const result = await this.client.execute({
      sql: `SELECT ${runColumns} FROM runs ${filter} ORDER BY ordinal DESC LIMIT ?`,
      args: [...statuses, sqliteLimit('limit', options.limit)],
    });
    return result.rows.map(runFromRow);
  }
}

function runFromRow(row: Row): RunRecord {
  return {
    id: readText(row, 'id'),
    kind: readText(row, 'kind') as RunKind,
    task: readText(row, 'task'),
    model: readText(row, 'model'),
    status: readText(row, 'status') as RunStatus,
    haltReason: readNullableText(row, 'halt_reason') as HaltReason | null,
    answer: readNullableText(row, 'answer'),
    conversationId: readNullableText(row, 'conversation_id'),
    llmCalls: readNumber(row, 'llm_calls'),
    inputTokens: readNumber(row, 'input_tokens'),
    outputTokens: readNumber(row, 'output_tokens'),
    costUsd: readNullableNumber(row, 'cost_usd'),
    error: readNullableText(row, 'error'),
    owner: row['owner_pid'] === null || row['owner_pid'] === undefined ? null : { pid: Number(row['owner_pid']), host: readNullableText(row, 'owner_host') ?? '' },
    logFile: readNullableText(row, 'log_file'),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
