import type { ForgeEvent } from './events.js';

/** Every run's events, as the run log holds them, addressed by run id and `seq` (unique per run). */
export interface EventStore {
  append(event: ForgeEvent): Promise<void>;
  /**
   * Appends several events, far cheaper than one `append` each. Atomic inside `Store.transaction`;
   * outside one, up to 100 events go in per statement.
   */
  appendAll(events: readonly ForgeEvent[]): Promise<void>;
  /** In `seq` order. */
  list(runId: string): Promise<ForgeEvent[]>;
}
