import { NotFoundError, type HaltReason, type RunAdmissionLimit, type NewRun, type OwnedBy, type RunKind, type RunOwner, type RunRecord, type RunStatus, type RunStore, type RunUpdate } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { ownedByCondition } from './owned-by.js';
import { prefixCondition } from './prefix-condition.js';
import { sqlLimit } from './sql-limit.js';
import { readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, WriteStep } from './sql-access.js';

const runColumns =
  'id, kind, task, model, status, halt_reason, answer, conversation_id, llm_calls, input_tokens, output_tokens, cost_usd, priced_cost_usd, unpriced_calls, error, owner_pid, owner_host, log_file, user_id, api_key_id, agent_slug, agent_version, created_at, updated_at';

// A fixed list, so only these names ever reach the SQL text, whatever keys an update object carries.
const updatableColumns = {
  status: 'status',
  haltReason: 'halt_reason',
  answer: 'answer',
  llmCalls: 'llm_calls',
  inputTokens: 'input_tokens',
  outputTokens: 'output_tokens',
  costUsd: 'cost_usd',
  pricedCostUsd: 'priced_cost_usd',
  unpricedCalls: 'unpriced_calls',
  error: 'error',
} as const satisfies Record<keyof RunUpdate, string>;

/** Runs in the `runs` table. A new run starts `running` with no calls, no tokens and $0 spent. */
export class SqlRunStore implements RunStore {
  constructor(private readonly sql: SqlAccess) {}

  async create(run: NewRun): Promise<RunRecord> {
    const record = newRunRecord(run);
    await this.sql.writeNow([
      {
        // The row is exactly `record`: nothing to read back.
        statement: { sql: `INSERT INTO runs (${insertColumns}) VALUES (${insertColumns.split(',').map(() => '?').join(', ')})`, args: insertValues(record) },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('run', { id: run.id }) : error),
      },
    ]);
    return record;
  }

  /**
   * One INSERT … SELECT whose WHERE counts each subject's runs: SQLite runs it under its one write lock
   * and PostgreSQL at SERIALIZABLE (a concurrent insert that would change a count aborts one of the
   * two, which is run again), so the counts and the insert are one atomic step on either engine.
   */
  async createWithin(run: NewRun, limits: readonly RunAdmissionLimit[], runsSince: string): Promise<RunRecord | undefined> {
    const record = newRunRecord(run);
    const conditions: string[] = [];
    const args: (string | number)[] = [];
    for (const limit of limits) {
      const column = subjectColumn(limit.subject.kind);
      if (limit.concurrentRuns !== null) {
        conditions.push(`(SELECT COUNT(*) FROM runs WHERE ${column} = ? AND status IN ('queued', 'running')) < ?`);
        args.push(limit.subject.id, limit.concurrentRuns);
      }
      if (limit.runsPerMinute !== null) {
        conditions.push(`(SELECT COUNT(*) FROM runs WHERE ${column} = ? AND created_at >= ?) < ?`);
        args.push(limit.subject.id, runsSince, limit.runsPerMinute);
      }
    }
    const values = insertValues(record);
    const [result] = await this.sql.writeNow([
      {
        statement: {
          sql: `INSERT INTO runs (${insertColumns}) SELECT ${values.map(() => '?').join(', ')}${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`}`,
          args: [...values, ...args],
        },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('run', { id: run.id }) : error),
      },
    ]);
    return result!.rowsAffected === 1 ? record : undefined;
  }

  async update(id: string, update: RunUpdate): Promise<RunRecord> {
    const [result] = await this.sql.write([updateRunStep(id, update, { returning: true })]);
    return runFromRow(result!.rows[0]!);
  }

  async claim(id: string, owner: RunOwner, from: readonly RunStatus[], options: { readonly logFile?: string } = {}): Promise<boolean> {
    if (from.length === 0) return false;
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE runs SET status = 'running', halt_reason = NULL, error = NULL, owner_pid = ?, owner_host = ?, log_file = COALESCE(?, log_file), updated_at = ?
                WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
          args: [owner.pid, owner.host, options.logFile ?? null, new Date().toISOString(), id, ...from],
        },
      },
    ]);
    return result!.rowsAffected === 1;
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${runColumns} FROM runs WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : runFromRow(row);
  }

  async list(options: { limit?: number; statuses?: readonly RunStatus[]; before?: string; ownedBy?: OwnedBy } = {}): Promise<RunRecord[]> {
    const statuses = options.statuses ?? [];
    const conditions = [
      ...(statuses.length === 0 ? [] : [`status IN (${statuses.map(() => '?').join(', ')})`]),
      ...(options.before === undefined ? [] : ['ordinal < (SELECT ordinal FROM runs WHERE id = ?)']),
      ...(options.ownedBy === undefined ? [] : [ownedByCondition(options.ownedBy)]),
    ];
    const filter = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const result = await this.sql.read({
      sql: `SELECT ${runColumns} FROM runs ${filter} ORDER BY ordinal DESC LIMIT ?`,
      args: [...statuses, ...(options.before === undefined ? [] : [options.before]), ...(options.ownedBy === undefined ? [] : [options.ownedBy.userId]), sqlLimit('limit', options.limit)],
    });
    return result.rows.map(runFromRow);
  }

  async findByIdPrefix(prefix: string, limit: number): Promise<RunRecord[]> {
    if (prefix === '') return [];
    const match = prefixCondition('id', prefix);
    const result = await this.sql.read({
      sql: `SELECT ${runColumns} FROM runs WHERE ${match.sql} ORDER BY ordinal DESC LIMIT ?`,
      args: [...match.args, sqlLimit('limit', limit)],
    });
    return result.rows.map(runFromRow);
  }

  async delete(id: string): Promise<boolean> {
    const results = await this.sql.write(
      ['events', 'steps', 'model_calls', 'run_states', 'approvals', 'runs'].map((table) => ({
        statement: { sql: `DELETE FROM ${table} WHERE ${table === 'runs' ? 'id' : 'run_id'} = ?`, args: [id] },
      })),
    );
    return results.at(-1)!.rowsAffected === 1;
  }
}

const insertColumns = 'id, kind, task, model, status, conversation_id, llm_calls, input_tokens, output_tokens, cost_usd, owner_pid, owner_host, log_file, user_id, api_key_id, agent_slug, agent_version, created_at, updated_at';

/** A new run as stored: `running` (or `queued`) with no calls, no tokens and $0 spent. */
function newRunRecord(run: NewRun): RunRecord {
  const now = new Date().toISOString();
  return {
    id: run.id,
    kind: run.kind ?? 'agent',
    task: run.task,
    model: run.model,
    status: run.status ?? 'running',
    haltReason: null,
    answer: null,
    conversationId: run.conversationId,
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    pricedCostUsd: 0,
    unpricedCalls: 0,
    error: null,
    owner: run.owner ?? null,
    logFile: run.logFile ?? null,
    userId: run.userId ?? null,
    apiKeyId: run.apiKeyId ?? null,
    agent: run.agent ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The values of `insertColumns` for a new run. */
function insertValues(record: RunRecord): (string | number | null)[] {
  return [
    record.id, record.kind, record.task, record.model, record.status, record.conversationId, 0, 0, 0, 0,
    record.owner?.pid ?? null, record.owner?.host ?? null, record.logFile, record.userId, record.apiKeyId,
    record.agent?.slug ?? null, record.agent?.version ?? null, record.createdAt, record.updatedAt,
  ];
}

/** The `runs` column a quota subject's runs are counted by; a fixed name, never input. */
export function subjectColumn(kind: 'account' | 'api-key'): 'user_id' | 'api_key_id' {
  return kind === 'account' ? 'user_id' : 'api_key_id';
}

/** The step that applies `update` to run `id`; it fails with `NotFoundError` when there is no such run. */
export function updateRunStep(id: string, update: RunUpdate, options: { returning: boolean }): WriteStep {
  const assignments: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [field, column] of Object.entries(updatableColumns) as [keyof RunUpdate, string][]) {
    const value = update[field];
    if (value !== undefined) {
      assignments.push(`${column} = ?`);
      values.push(value);
    }
  }
  return {
    statement: {
      sql: `UPDATE runs SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE id = ?${options.returning ? ` RETURNING ${runColumns}` : ''}`,
      args: [...values, new Date().toISOString(), id],
    },
    ifUnchanged: () => new NotFoundError('run', id, 'Create the run with store.runs.create before updating it.'),
  };
}

function runFromRow(row: SqlRow): RunRecord {
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
    pricedCostUsd: readNumber(row, 'priced_cost_usd'),
    unpricedCalls: readNumber(row, 'unpriced_calls'),
    error: readNullableText(row, 'error'),
    owner: row['owner_pid'] === null || row['owner_pid'] === undefined ? null : { pid: Number(row['owner_pid']), host: readNullableText(row, 'owner_host') ?? '' },
    logFile: readNullableText(row, 'log_file'),
    userId: readNullableText(row, 'user_id'),
    apiKeyId: readNullableText(row, 'api_key_id'),
    agent: row['agent_slug'] === null || row['agent_slug'] === undefined ? null : { slug: readText(row, 'agent_slug'), version: readNumber(row, 'agent_version') },
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
