import type { PolicyDecisionKind } from './events.js';
import type { RiskLevel, SideEffect } from './tool.js';

export interface PolicyRequest {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly risk: RiskLevel;
  readonly sideEffect: SideEffect;
  readonly input: unknown;
  /**
   * Scopes narrower than the installation whose policies apply to this call besides the run's own
   * (`agent:<slug>`, `deployment:<id>`), broadest first. The run's scope (`run:<runId>`) always applies.
   */
  readonly scopes?: readonly string[];
  /** The folder the call's workspace tools work in (the run's): relative paths in `outside` conditions are taken from it; default the installation's. */
  readonly workspace?: string;
}

export interface PolicyVerdict {
  readonly decision: PolicyDecisionKind;
  readonly reason: string;
  /** The rule that decided, as a reader can find it (`installation rule 2`, `default for high risk`). */
  readonly rule?: string;
  /** For `require_approval`: how long the request waits for an answer (and the answer stays valid), when the rule says. */
  readonly approvalExpiresSeconds?: number;
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
      /** The standing "approve always" choice that approved this call without asking. */
      readonly grant?: { readonly id: string; readonly scope: string };
      /** Why an answer that exists was not honoured (dispatch tells the model): it expired, or it does not verify. */
      readonly refused?: 'expired' | 'unverified';
    }
  | { readonly approved: false; readonly reason: string; readonly pending: true; readonly expiresAt: string | null };

/** Resolves a `require_approval` verdict: whether the call was approved, and why, or that the answer is pending. */
export interface ApprovalGate {
  request(request: PolicyRequest & { reason: string; expiresSeconds?: number }): Promise<ApprovalAnswer>;
}
