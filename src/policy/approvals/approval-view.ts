import { z } from 'zod';
import type { ApprovalGrant, ApprovalRecord } from '../../core/index.js';

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

/** An "approve always" grant as JSON output and the API show it; its signature stays inside. */
export interface ApprovalGrantView {
  readonly id: string;
  readonly scope: string;
  readonly tool: string;
  readonly granted_by: string;
  readonly run_id: string;
  readonly call_id: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
  readonly revoked_by: string | null;
}

export function approvalGrantView(grant: ApprovalGrant): ApprovalGrantView {
  return {
    id: grant.id,
    scope: grant.scope,
    tool: grant.tool,
    granted_by: grant.grantedBy,
    run_id: grant.runId,
    call_id: grant.callId,
    created_at: grant.createdAt,
    revoked_at: grant.revokedAt,
    revoked_by: grant.revokedBy,
  };
}

/** The JSON of an approval request: one schema for the CLI's --json output and the API. */
export const approvalViewSchema = z
  .object({
    run_id: z.string(),
    call_id: z.string(),
    tool: z.string(),
    input_digest: z.string(),
    reason: z.string(),
    status: z.enum(['pending', 'approved', 'denied', 'used', 'expired']),
    requested_at: z.string(),
    expires_at: z.string().nullable(),
    answer_reason: z.string().nullable(),
    answered_at: z.string().nullable(),
  })
  .strict() satisfies z.ZodType<ApprovalView>;

/** The JSON of an "approve always" grant, for the CLI and the API. */
export const approvalGrantViewSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    tool: z.string(),
    granted_by: z.string(),
    run_id: z.string(),
    call_id: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    revoked_by: z.string().nullable(),
  })
  .strict() satisfies z.ZodType<ApprovalGrantView>;
