import { NotFoundError, type NewStep, type StepRecord, type StepStore } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { insertRowSteps } from './insert-rows.js';
import { readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, WriteStep } from './sql-access.js';

/**
 * Steps in the `steps` table; a step's `index` is its `position` column. A step belongs to a stored
 * run: recording one for an unknown run throws `NotFoundError`, and recording an index the run
 * already has throws `DuplicateRecordError`.
 */
export class SqlStepStore implements StepStore {
  constructor(private readonly sql: SqlAccess) {}

  async record(step: NewStep): Promise<void> {
    await this.recordAll([step]);
  }

  async recordAll(steps: readonly NewStep[]): Promise<void> {
    await this.sql.write(recordStepSteps(steps));
  }

  async list(runId: string): Promise<StepRecord[]> {
    const result = await this.sql.read({
      sql: 'SELECT run_id, position, call_id, tool, input, output, error, duration_ms, created_at FROM steps WHERE run_id = ? ORDER BY position',
      args: [runId],
    });
    return result.rows.map(stepFromRow);
  }
}

export function recordStepSteps(steps: readonly NewStep[]): WriteStep[] {
  if (steps.length === 0) return [];
  const createdAt = new Date().toISOString();
  const first = steps[0]!;
  return insertRowSteps(
    'steps',
    ['run_id', 'position', 'call_id', 'tool', 'input', 'output', 'error', 'duration_ms', 'created_at'],
    steps.map((step) => [step.runId, step.index, step.callId, step.tool, toJsonColumn(step.input), step.output, step.error, step.durationMs, createdAt]),
    (error) => {
      switch (constraintViolation(error)) {
        case 'unique':
          return new DuplicateRecordError('step', { runId: first.runId, index: first.index });
        case 'foreign-key':
          return new NotFoundError('run', first.runId, 'Create the run with store.runs.create before recording its steps.');
        default:
          return error;
      }
    },
  );
}

function stepFromRow(row: SqlRow): StepRecord {
  return {
    runId: readText(row, 'run_id'),
    index: readNumber(row, 'position'),
    callId: readText(row, 'call_id'),
    tool: readText(row, 'tool'),
    input: fromJsonColumn(readNullableText(row, 'input')),
    output: readNullableText(row, 'output'),
    error: readNullableText(row, 'error'),
    durationMs: readNumber(row, 'duration_ms'),
    createdAt: readText(row, 'created_at'),
  };
}
