/** Where an approval stands: asked, answered (once), acted on by its run (once), or timed out. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'used' | 'expired';

/** One call a policy sent for approval, bound to its run, its call id and the digest of its input. */
export interface ApprovalRecord {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  /** sha256 of the call's canonical input, hex. */
  readonly inputDigest: string;
  /** Why the policy asked. */
  readonly reason: string;
  readonly status: ApprovalStatus;
  readonly requestedAt: string;
  /** Until when the request waits for an answer, and an answer given stays valid. */
  readonly expiresAt: string | null;
  /** The answerer's reason (a denial's reason is what the model is told). */
  readonly answerReason: string | null;
  readonly answeredAt: string | null;
  /**
   * The answer's signature, `<key id>.<hmac>`: binds run, call, tool, input digest, decision and expiry
   * under a key derived from the installation's secret key. An answer without a valid one is not honoured.
   */
  readonly seal: string | null;
}

export type NewApproval = Pick<ApprovalRecord, 'runId' | 'callId' | 'tool' | 'inputDigest' | 'reason' | 'expiresAt'>;

/** A recorded "approve always": calls of `tool` in `scope` (`run:<id>`, `agent:<slug>`) need no approval while it stands. */
export interface ApprovalGrant {
  readonly id: string;
  readonly scope: string;
  readonly tool: string;
  /** Who chose it (an account id, `operator`, or `cli`). */
  readonly grantedBy: string;
  /** The run and call whose answer made the choice. */
  readonly runId: string;
  readonly callId: string;
  readonly createdAt: string;
  /** Signature over id, scope, tool and creation, like an answer's; a grant that does not verify grants nothing. */
  readonly seal: string;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
}

export type NewApprovalGrant = Omit<ApprovalGrant, 'revokedAt' | 'revokedBy'>;

export interface ApprovalStore {
  /** Records a pending request; asking again for the same run and call keeps the first request. */
  request(approval: NewApproval): Promise<ApprovalRecord>;
  get(runId: string, callId: string): Promise<ApprovalRecord | undefined>;
  /** Oldest first; only those in one of `statuses`, of one run, when given. */
  list(options?: { statuses?: readonly ApprovalStatus[]; runId?: string }): Promise<ApprovalRecord[]>;
  /**
   * Moves a pending request to `to`, atomically, with the answer's signature (none for `expired`):
   * resolves the updated record, or undefined when it was not pending any more (answered, used or
   * expired before; a second answer never wins). `answeredAt` is part of what the signature covers.
   */
  settle(runId: string, callId: string, answer: { to: 'approved' | 'denied' | 'expired'; reason: string | null; answeredAt: string; seal: string | null }): Promise<ApprovalRecord | undefined>;
  /** Marks an answered request used, atomically: true only for the first caller. */
  use(runId: string, callId: string): Promise<boolean>;
  /** Records an "approve always" choice. */
  grant(grant: NewApprovalGrant): Promise<ApprovalGrant>;
  /** Grants, oldest first: those of these scopes and this tool when given; only standing ones unless `revoked`. */
  grants(options?: { scopes?: readonly string[]; tool?: string; revoked?: boolean }): Promise<ApprovalGrant[]>;
  /** Revokes a standing grant, atomically: the revoked grant, or undefined when there was none standing with this id. */
  revokeGrant(id: string, revokedBy: string): Promise<ApprovalGrant | undefined>;
}
