/** How far back a subject's runs count against its runs per minute. */
export const RUNS_PER_MINUTE_WINDOW_MS = 60_000;

/** Where a day's quota counting starts: 00:00 UTC of `now`'s day. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** When the daily limits (tokens, dollars) start again: the next 00:00 UTC. */
export function nextUtcDay(now: Date): Date {
  return new Date(startOfUtcDay(now).getTime() + 86_400_000);
}

/** Where the runs-per-minute window starts: 60 seconds before `now`. */
export function minuteWindowStart(now: Date): Date {
  return new Date(now.getTime() - RUNS_PER_MINUTE_WINDOW_MS);
}
