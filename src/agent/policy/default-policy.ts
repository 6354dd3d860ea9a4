import type { ApprovalGate, Policy } from '../../core/index.js';

/**
 * The policy hook until the full policy engine lands: low and medium risk tools run; high-risk tools
 * need an approval.
 */
export const defaultPolicy: Policy = {
  async decide(request) {
    if (request.risk === 'high') return { decision: 'require_approval', reason: `${request.tool} is a high-risk tool` };
    return { decision: 'allow', reason: `${request.risk}-risk ${request.sideEffect} tool` };
  },
};

/** With nobody to ask (headless, CI), approvals are refused, never assumed. */
export const refuseApprovals: ApprovalGate = {
  async request(request) {
    return { approved: false, reason: `no approver is attached to this run (${request.reason}); run it interactively or change the policy` };
  },
};

/**
 * The default policy, with these tools always sent for approval (FORGE_REQUIRE_APPROVAL): the
 * interim way to guard a tool until the policy engine takes over per-tool rules.
 */
export function policyRequiringApproval(tools: readonly string[]): Policy {
  if (tools.length === 0) return defaultPolicy;
  const guarded = new Set(tools);
  return {
    async decide(request) {
      if (guarded.has(request.tool)) return { decision: 'require_approval', reason: `${request.tool} needs approval (FORGE_REQUIRE_APPROVAL)` };
      return defaultPolicy.decide(request);
    },
  };
}
