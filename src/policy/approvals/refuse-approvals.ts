import type { ApprovalGate } from '../../core/index.js';

/**
 * With nobody to ask (headless, CI), approvals are refused, never assumed. `advice` says how the caller
 * could have answered (each entrance names its own way: the CLI its `--wait-for-approval`).
 */
export function refusingApprovals(advice: string): ApprovalGate {
  return {
    async request(request) {
      return { approved: false, reason: `no approver is attached to this run (${request.reason}); ${advice}` };
    },
  };
}

/** The library's default gate: refuses, naming the ways to attach an approver. */
export const refuseApprovals: ApprovalGate = refusingApprovals('attach an approver (the run options\' `approvals`) or change the policy');
