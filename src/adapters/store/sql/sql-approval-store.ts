import { NotFoundError, type ApprovalGrant, type ApprovalRecord, type ApprovalStatus, type ApprovalStore, type NewApproval, type NewApprovalGrant } from '../../../core/index.js';
import { constraintViolation } from './constraint-violation.js';
import { readNullableText, readText } from './row-values.js';
import type { SqlAccess, SqlRow, SqlValue } from './sql-access.js';

const approvalColumns = 'run_id, call_id, tool, input_digest, reason, status, requested_at, expires_at, answer_reason, answered_at, seal';
const grantColumns = 'id, scope, tool, granted_by, run_id, call_id, created_at, seal, revoked_at, revoked_by';

/**
 * Approvals in `approvals`, one per run and call. Every change of status is one conditional UPDATE, so
 * two processes answering the same request (or a run using an answer twice) race safely: exactly one wins.
 */
export class SqlApprovalStore implements ApprovalStore {
  constructor(private readonly sql: SqlAccess) {}

  async request(approval: NewApproval): Promise<ApprovalRecord> {
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO approvals (run_id, call_id, tool, input_digest, reason, status, requested_at, expires_at)
                VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (run_id, call_id) DO NOTHING`,
          args: [approval.runId, approval.callId, approval.tool, approval.inputDigest, approval.reason, new Date().toISOString(), approval.expiresAt],
        },
        onError: (error) => (constraintViolation(error) === 'foreign-key' ? new NotFoundError('run', approval.runId, 'Create the run before asking for an approval.') : error),
      },
    ]);
    return (await this.get(approval.runId, approval.callId))!;
  }

  async get(runId: string, callId: string): Promise<ApprovalRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${approvalColumns} FROM approvals WHERE run_id = ? AND call_id = ?`, args: [runId, callId] });
    const row = result.rows[0];
    return row === undefined ? undefined : approvalFromRow(row);
  }

  async list(options: { statuses?: readonly ApprovalStatus[]; runId?: string } = {}): Promise<ApprovalRecord[]> {
    const conditions: string[] = [];
    const args: SqlValue[] = [];
    if (options.statuses !== undefined && options.statuses.length > 0) {
      conditions.push(`status IN (${options.statuses.map(() => '?').join(', ')})`);
      args.push(...options.statuses);
    }
    if (options.runId !== undefined) {
      conditions.push('run_id = ?');
      args.push(options.runId);
    }
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const result = await this.sql.read({ sql: `SELECT ${approvalColumns} FROM approvals ${where} ORDER BY requested_at, run_id, call_id`, args });
    return result.rows.map(approvalFromRow);
  }

  async settle(runId: string, callId: string, answer: { to: 'approved' | 'denied' | 'expired'; reason: string | null; answeredAt: string; seal: string | null }): Promise<ApprovalRecord | undefined> {
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE approvals SET status = ?, answer_reason = ?, answered_at = ?, seal = ? WHERE run_id = ? AND call_id = ? AND status = 'pending'`,
          args: [answer.to, answer.reason, answer.answeredAt, answer.seal, runId, callId],
        },
      },
    ]);
    return result!.rowsAffected === 1 ? this.get(runId, callId) : undefined;
  }

  async use(runId: string, callId: string): Promise<boolean> {
    const [result] = await this.sql.write([
      { statement: { sql: `UPDATE approvals SET status = 'used' WHERE run_id = ? AND call_id = ? AND status IN ('approved', 'denied')`, args: [runId, callId] } },
    ]);
    return result!.rowsAffected === 1;
  }

  async grant(grant: NewApprovalGrant): Promise<ApprovalGrant> {
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO approval_grants (${grantColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
          args: [grant.id, grant.scope, grant.tool, grant.grantedBy, grant.runId, grant.callId, grant.createdAt, grant.seal],
        },
      },
    ]);
    return { ...grant, revokedAt: null, revokedBy: null };
  }

  async grants(options: { scopes?: readonly string[]; tool?: string; revoked?: boolean } = {}): Promise<ApprovalGrant[]> {
    const conditions: string[] = [];
    const args: SqlValue[] = [];
    if (options.scopes !== undefined) {
      if (options.scopes.length === 0) return [];
      conditions.push(`scope IN (${options.scopes.map(() => '?').join(', ')})`);
      args.push(...options.scopes);
    }
    if (options.tool !== undefined) {
      conditions.push('tool = ?');
      args.push(options.tool);
    }
    if (options.revoked !== true) conditions.push('revoked_at IS NULL');
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const result = await this.sql.read({ sql: `SELECT ${grantColumns} FROM approval_grants ${where} ORDER BY created_at, id`, args });
    return result.rows.map(grantFromRow);
  }

  async revokeGrant(id: string, revokedBy: string): Promise<ApprovalGrant | undefined> {
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE approval_grants SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL RETURNING ${grantColumns}`,
          args: [new Date().toISOString(), revokedBy, id],
        },
      },
    ]);
    const row = result!.rows[0];
    return row === undefined ? undefined : grantFromRow(row);
  }
}

function grantFromRow(row: SqlRow): ApprovalGrant {
  return {
    id: readText(row, 'id'),
    scope: readText(row, 'scope'),
    tool: readText(row, 'tool'),
    grantedBy: readText(row, 'granted_by'),
    runId: readText(row, 'run_id'),
    callId: readText(row, 'call_id'),
    createdAt: readText(row, 'created_at'),
    seal: readText(row, 'seal'),
    revokedAt: readNullableText(row, 'revoked_at'),
    revokedBy: readNullableText(row, 'revoked_by'),
  };
}

function approvalFromRow(row: SqlRow): ApprovalRecord {
  return {
    runId: readText(row, 'run_id'),
    callId: readText(row, 'call_id'),
    tool: readText(row, 'tool'),
    inputDigest: readText(row, 'input_digest'),
    reason: readText(row, 'reason'),
    status: readText(row, 'status') as ApprovalStatus,
    requestedAt: readText(row, 'requested_at'),
    expiresAt: readNullableText(row, 'expires_at'),
    answerReason: readNullableText(row, 'answer_reason'),
    answeredAt: readNullableText(row, 'answered_at'),
    seal: readNullableText(row, 'seal'),
  };
}
