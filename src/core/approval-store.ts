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
  readonly expiresAt: string | null;
  /** The answerer's reason (a denial's reason is what the model is told). */
  readonly answerReason: string | null;
  readonly answeredAt: string | null;
}

export type NewApproval = Pick<ApprovalRecord, 'runId' | 'callId' | 'tool' | 'inputDigest' | 'reason' | 'expiresAt'>;

export interface ApprovalStore {
  /** Records a pending request; asking again for the same run and call keeps the first request. */
  request(approval: NewApproval): Promise<ApprovalRecord>;
  get(runId: string, callId: string): Promise<ApprovalRecord | undefined>;
  /** Oldest first; only those in one of `statuses`, of one run, when given. */
  list(options?: { statuses?: readonly ApprovalStatus[]; runId?: string }): Promise<ApprovalRecord[]>;
  /**
   * Moves a pending request to `to`, atomically: resolves the updated record, or undefined when it was
   * not pending any more (answered, used or expired before; a second answer never wins).
   */
  settle(runId: string, callId: string, to: 'approved' | 'denied' | 'expired', reason: string | null): Promise<ApprovalRecord | undefined>;
  /** Marks an answered request used, atomically: true only for the first caller. */
  use(runId: string, callId: string): Promise<boolean>;
}
