import type { ApprovalRecord } from '../core/index.js';

/** An approval request as Forge's JSON output and the API show it (snake_case). */
export interface ApprovalView {
  readonly run_id: string;
  readonly call_id: string;
  readonly tool: string;
  readonly input_digest: string;
  readonly reason: string;
  readonly status: ApprovalRecord['status'];
  readonly requested_at: string;
  readonly expires_at: string | null;
  readonly answer_reason: string | null;
  readonly answered_at: string | null;
}

export function approvalView(approval: ApprovalRecord): ApprovalView {
  return {
    run_id: approval.runId,
    call_id: approval.callId,
    tool: approval.tool,
    input_digest: approval.inputDigest,
    reason: approval.reason,
    status: approval.status,
    requested_at: approval.requestedAt,
    expires_at: approval.expiresAt,
    answer_reason: approval.answerReason,
    answered_at: approval.answeredAt,
  };
}
