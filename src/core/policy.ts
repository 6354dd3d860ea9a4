import type { PolicyDecisionKind } from './events.js';
import type { RiskLevel, SideEffect } from './tool.js';

export interface PolicyRequest {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly risk: RiskLevel;
  readonly sideEffect: SideEffect;
  readonly input: unknown;
}

export interface PolicyVerdict {
  readonly decision: PolicyDecisionKind;
  readonly reason: string;
}

/** Decides, for every tool call, whether it runs. Consulted by dispatch and nowhere else. */
export interface Policy {
  decide(request: PolicyRequest): Promise<PolicyVerdict>;
}

/**
 * What an approval gate says about one call: approved or denied (and why), or `pending`: the question is
 * out and the run pauses until someone answers it (the call does not run meanwhile).
 */
export type ApprovalAnswer =
  | {
      readonly approved: boolean;
      readonly reason: string;
      readonly pending?: false;
      /** The answer is a person's, given to an earlier `approval-request` (dispatch records it as `approval-answer`). */
      readonly answered?: true;
    }
  | { readonly approved: false; readonly reason: string; readonly pending: true; readonly expiresAt: string | null };

/** Resolves a `require_approval` verdict: whether the call was approved, and why, or that the answer is pending. */
export interface ApprovalGate {
  request(request: PolicyRequest & { reason: string }): Promise<ApprovalAnswer>;
}
