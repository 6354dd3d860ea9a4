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

/** Resolves a `require_approval` verdict. Returns whether the call was approved, and why. */
export interface ApprovalGate {
  request(request: PolicyRequest & { reason: string }): Promise<{ approved: boolean; reason: string }>;
}
