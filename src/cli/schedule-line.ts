import type { ScheduleFiring } from '../compose/index.js';

/** A schedule's firing as a line on the terminal (`forge serve` and `forge worker` print one each). */
export function describeFiring(firing: ScheduleFiring): string {
  const slot = new Date(firing.slotMs).toISOString();
  return 'runId' in firing ? `schedule ${firing.scheduleId}: fired for ${slot}, run ${firing.runId}` : `schedule ${firing.scheduleId}: could not fire for ${slot}: ${firing.error}`;
}
