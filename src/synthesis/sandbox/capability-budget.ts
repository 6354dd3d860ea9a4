import { ForgeError } from '../../core/index.js';

/** A run asked its capabilities to move more bytes than `limits.capabilityBytes` allows. */
export class CapabilityBudgetError extends ForgeError {
  readonly member: string;
  readonly limitBytes: number;
  constructor(member: string, limitBytes: number) {
    super({
      name: 'CapabilityBudgetError',
      // The guest sees only name and message, so the message says what to change.
      message: `${member} was refused: this run has moved its ${limitBytes} bytes through forge capabilities (limits.capabilityBytes). Fetch or read less per run.`,
    });
    this.member = member;
    this.limitBytes = limitBytes;
  }
}

/** The bytes one run may still move through its capabilities, arguments and results together. */
export interface CapabilityBudget {
  /**
   * Counts `bytes` the host moved for the run; throws `CapabilityBudgetError` when the total passes the
   * limit. They count even then: a result that was fetched but refused still cost the host its transfer.
   */
  charge(bytes: number, member: string): void;
  /** Throws `CapabilityBudgetError` once nothing is left, so no new call starts. */
  ensureLeft(member: string): void;
}

export function createCapabilityBudget(limitBytes: number): CapabilityBudget {
  let used = 0;
  return {
    charge(bytes, member) {
      used += bytes;
      if (used > limitBytes) throw new CapabilityBudgetError(member, limitBytes);
    },
    ensureLeft(member) {
      if (used >= limitBytes) throw new CapabilityBudgetError(member, limitBytes);
    },
  };
}
