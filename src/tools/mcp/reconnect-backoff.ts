/** How long to wait between reconnection attempts. */
export interface ReconnectBackoff {
  /** Wait after the first failure. */
  readonly initialMs: number;
  /** The wait doubles after every further failure up to this cap, and stays there. */
  readonly maxMs: number;
}

export const DEFAULT_RECONNECT_BACKOFF: ReconnectBackoff = { initialMs: 1_000, maxMs: 60_000 };

/**
 * The wait before attempt `failedAttempts + 1`: exponential from `initialMs`, capped at `maxMs`. No
 * jitter: one Forge talks to each server once, so there is no herd to spread, and a fixed schedule is
 * what a user reading `next_attempt_at` expects.
 */
export function reconnectDelayMs(failedAttempts: number, backoff: ReconnectBackoff): number {
  const exponent = Math.max(0, failedAttempts - 1);
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(exponent, 30));
}
