import type { Principal } from '../../core/index.js';
import type { EventStreamLimits } from '../../compose/index.js';
import { ApiError } from './api-route.js';

/** Seconds a refused client is told to wait: streams end when their runs do, so a slot frees soon. */
const RETRY_AFTER_SECONDS = 5;

/** An open stream's place in the count; releasing it twice releases it once. */
export interface EventStreamSlot {
  release(): void;
}

/**
 * The open event streams of one server, counted per account and in all, so no account can hold every
 * stream (or the server's memory) with a flood of connections. `open` takes a slot or refuses with 429
 * and a Retry-After, naming which cap was reached and the setting that raises it.
 */
export class EventStreamSlots {
  private total = 0;
  private readonly perAccount = new Map<string, number>();

  constructor(readonly limits: EventStreamLimits) {}

  /** Streams open now, in all or of the account `principal` belongs to. */
  openCount(principal?: Principal): number {
    return principal === undefined ? this.total : (this.perAccount.get(accountKey(principal)) ?? 0);
  }

  open(principal: Principal | undefined): EventStreamSlot {
    const key = principal === undefined ? 'anonymous' : accountKey(principal);
    const held = this.perAccount.get(key) ?? 0;
    if (held >= this.limits.maxPerAccount) {
      throw refusal(
        `This account already has ${held} event streams open, the most one account may.`,
        'Close streams you no longer read (each browser tab of a run holds one) and retry after Retry-After seconds; the operator sets the cap with FORGE_SSE_MAX_STREAMS_PER_ACCOUNT.',
      );
    }
    if (this.total >= this.limits.maxTotal) {
      throw refusal(`The server has ${this.total} event streams open, the most it keeps.`, 'Retry after Retry-After seconds; the operator sets the cap with FORGE_SSE_MAX_STREAMS.');
    }
    this.total += 1;
    this.perAccount.set(key, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.perAccount.get(key) ?? 1) - 1;
        if (left === 0) this.perAccount.delete(key);
        else this.perAccount.set(key, left);
      },
    };
  }
}

function accountKey(principal: Principal): string {
  return principal.userId === null ? 'operator' : `user:${principal.userId}`;
}

function refusal(message: string, hint: string): ApiError {
  return new ApiError(429, 'TooManyEventStreams', message, hint, RETRY_AFTER_SECONDS);
}
