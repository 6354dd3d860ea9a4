import type { ForgeEvent, LiveEvent } from './events.js';

/**
 * Carries runs' events between processes, so any server process streams a run that a worker runs.
 * Only events already committed to the store are published (the store stays the source of truth for
 * resume and for `Last-Event-ID`): a reader that saw an event live finds it in the store after a crash.
 * Delivery is at most once (Redis pub/sub); a reader that sees a gap in seqs reads the store again.
 * Live events (text fragments) are carried best-effort and never stored.
 *
 * The embedded mode has none: one process runs and streams every run. The scaled mode uses Redis
 * pub/sub (`RedisEventFanOut`).
 */
export interface EventFanOut {
  /** Sends one run's committed events, in seq order, to every process that follows the run. */
  publish(runId: string, events: readonly ForgeEvent[]): Promise<void>;
  /**
   * Follows one run's published events, from any process. Resolves once the subscription is active, so
   * every event published after it resolves reaches `listener`. Returns the function that stops following.
   */
  followRun(runId: string, listener: (event: ForgeEvent) => void): Promise<() => Promise<void>>;
  /** Sends a live event to every process that follows live events. */
  publishLive(event: LiveEvent): void;
  /** Follows every run's live events, from any process; resolves once subscribed. */
  followLive(listener: (event: LiveEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
