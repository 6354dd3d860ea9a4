import type { ApprovalAnswer, ApprovalGate, ApprovalRecord, PolicyRequest, Store } from '../../core/index.js';
import { inputDigest } from '../../tools/index.js';
import { describeSealCheck, type ApprovalSealer } from './approval-seal.js';

/** How long a call waits for its approval before its run fails `approval_expired`, by default: one hour. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 60 * 60 * 1000;

export interface StoredApprovalGateOptions {
  /** How long a request waits (and an answer stays valid) unless the policy's rule says; default one hour. */
  readonly timeoutMs?: number;
  readonly sealer: ApprovalSealer;
  readonly now?: () => number;
}

/**
 * Approvals as interruptions: the first time a call needs one, the request is stored (bound to its run,
 * call id and input digest) and the answer is `pending`, so the run pauses instead of blocking; once
 * someone has answered (`forge approvals approve|deny`, from any process), the resumed run asks again
 * and gets that answer, exactly once. Fails closed: an answer for another input, one already used, one
 * whose signature does not verify (forged, altered, or signed under another key) or one used after it
 * expired is not honoured, and the model is told which. A standing "approve always" grant for the tool
 * in the run (or a scope the request names) approves without asking, when its signature verifies.
 */
export class StoredApprovalGate implements ApprovalGate {
  constructor(
    private readonly store: Store,
    private readonly options: StoredApprovalGateOptions,
  ) {}

  async request(request: PolicyRequest & { reason: string; expiresSeconds?: number }): Promise<ApprovalAnswer> {
    const digest = inputDigest(request.input);
    const existing = await this.store.approvals.get(request.runId, request.callId);
    if (existing === undefined) {
      const granted = await this.standingGrant(request);
      if (granted !== undefined) return granted;
      const waitMs = request.expiresSeconds === undefined ? (this.options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS) : request.expiresSeconds * 1000;
      const expiresAt = new Date(this.now() + waitMs).toISOString();
      await this.store.approvals.request({ runId: request.runId, callId: request.callId, tool: request.tool, inputDigest: digest, reason: request.reason, expiresAt });
      return { approved: false, pending: true, reason: request.reason, expiresAt };
    }
    switch (existing.status) {
      case 'pending':
        return { approved: false, pending: true, reason: existing.reason, expiresAt: existing.expiresAt };
      case 'approved':
      case 'denied':
        return this.answered(existing, digest);
      case 'used':
        return { approved: false, reason: 'the answer to this call was already used once' };
      case 'expired':
        return { approved: false, refused: 'expired', reason: 'expired: nobody answered before the approval request expired' };
    }
  }

  private async answered(existing: ApprovalRecord, digest: string): Promise<ApprovalAnswer> {
    const word = existing.status === 'approved' ? 'approval' : 'answer';
    if (existing.inputDigest !== digest) {
      return { approved: false, reason: `the call's input is not the one the ${word} was given for (digest ${existing.inputDigest.slice(0, 12)}, now ${digest.slice(0, 12)})` };
    }
    const check = this.options.sealer.checkAnswer(existing);
    if (check !== 'valid') {
      return { approved: false, refused: 'unverified', reason: `the ${word} to this call is not honoured: ${describeSealCheck(check)}; call the tool again to ask anew` };
    }
    if (!(await this.store.approvals.use(existing.runId, existing.callId))) return { approved: false, reason: 'the answer to this call was already used once' };
    const approved = existing.status === 'approved';
    if (approved && existing.expiresAt !== null && Date.parse(existing.expiresAt) <= this.now()) {
      return { approved: false, refused: 'expired', reason: `expired: the approval was valid until ${existing.expiresAt} and the call came later; call the tool again to ask anew` };
    }
    const grant = approved ? (await this.store.approvals.grants({ scopes: [`run:${existing.runId}`], tool: existing.tool })).find((candidate) => candidate.callId === existing.callId) : undefined;
    return {
      approved,
      answered: true,
      reason: existing.answerReason ?? (approved ? 'approved' : 'denied'),
      ...(grant === undefined ? {} : { grant: { id: grant.id, scope: grant.scope } }),
    };
  }

  private async standingGrant(request: PolicyRequest): Promise<ApprovalAnswer | undefined> {
    const scopes = [...(request.scopes ?? []), `run:${request.runId}`];
    const grants = await this.store.approvals.grants({ scopes, tool: request.tool });
    const valid = grants.find((grant) => this.options.sealer.checkGrant(grant) === 'valid');
    if (valid === undefined) return undefined;
    return { approved: true, reason: `approved always for ${request.tool} in ${valid.scope} (grant ${valid.id})`, grant: { id: valid.id, scope: valid.scope } };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
