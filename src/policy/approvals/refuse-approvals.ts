import type { ApprovalGate } from '../../core/index.js';

/** With nobody to ask (headless, CI), approvals are refused, never assumed. */
export const refuseApprovals: ApprovalGate = {
  async request(request) {
    return { approved: false, reason: `no approver is attached to this run (${request.reason}); run it interactively or change the policy` };
  },
};
