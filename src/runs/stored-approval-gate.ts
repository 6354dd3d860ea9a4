import type { ApprovalAnswer, ApprovalGate, PolicyRequest, Store } from '../core/index.js';
import { inputDigest } from '../tools/index.js';

/** How long a call waits for its approval before its run fails `approval_expired`, by default: one hour. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * Approvals as interruptions: the first time a call needs one, the request is stored (bound to its run,
 * call id and input digest) and the answer is `pending`, so the run pauses instead of blocking; once
 * someone has answered (`forge approvals approve|deny`, from any process), the resumed run asks again
 * and gets that answer, exactly once. An answer never applies to a call whose input differs from the
 * one it was asked for, and an answer already used is refused.
 */
export class StoredApprovalGate implements ApprovalGate {
  constructor(
    private readonly store: Store,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  async request(request: PolicyRequest & { reason: string }): Promise<ApprovalAnswer> {
    const digest = inputDigest(request.input);
    const existing = await this.store.approvals.get(request.runId, request.callId);
    if (existing === undefined) {
      const expiresAt = new Date(Date.now() + (this.options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS)).toISOString();
      await this.store.approvals.request({ runId: request.runId, callId: request.callId, tool: request.tool, inputDigest: digest, reason: request.reason, expiresAt });
      return { approved: false, pending: true, reason: request.reason, expiresAt };
    }
    switch (existing.status) {
      case 'pending':
        return { approved: false, pending: true, reason: existing.reason, expiresAt: existing.expiresAt };
      case 'approved':
      case 'denied': {
        if (existing.inputDigest !== digest) {
          return { approved: false, reason: `the call's input is not the one the ${existing.status === 'approved' ? 'approval' : 'answer'} was given for (digest ${existing.inputDigest.slice(0, 12)}, now ${digest.slice(0, 12)})` };
        }
        if (!(await this.store.approvals.use(request.runId, request.callId))) return { approved: false, reason: 'the answer to this call was already used once' };
        const approved = existing.status === 'approved';
        return { approved, answered: true, reason: existing.answerReason ?? (approved ? 'approved' : 'denied') };
      }
      case 'used':
        return { approved: false, reason: 'the answer to this call was already used once' };
      case 'expired':
        return { approved: false, reason: 'nobody answered before the approval expired' };
    }
  }
}
