import type { EventFanOut, ForgeEvent, Store } from '../core/index.js';

/** How long a follower waits for a published event before it reads the store again (a lost message, a quiet run). */
const STORE_POLL_MS = 2_000;

/** Statuses after which a run records nothing more until something resumes it. */
const SETTLED = new Set(['waiting', 'completed', 'failed', 'cancelled', 'refused']);

/** Whether an event is the last a reader gets: the run ended or paused. */
function closesStream(event: ForgeEvent): boolean {
  return event.type === 'run-end' || event.type === 'run-pause';
}

/**
 * A run that another process runs (a worker, in the scaled mode), followed from here: every event after
 * `afterSeq`, each once, in seq order, until its `run-end` or `run-pause`. Subscribes to the fan-out
 * first and then reads the store, so nothing committed in between is missed; events arrive only once
 * committed (see `EventFanOut`), so the store always holds what was published. A gap in the published
 * seqs (pub/sub delivers at most once), or a quiet spell of STORE_POLL_MS, reads the store again. A run
 * that is settled with nothing more stored (queued and cancelled, or ended before this reader came)
 * ends the stream after what the store holds.
 */
export async function* followRemoteRun(store: Store, fanOut: EventFanOut, runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<ForgeEvent> {
  const published: ForgeEvent[] = [];
  let wake: (() => void) | undefined;
  const stop = await fanOut.followRun(runId, (event) => {
    published.push(event);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  let last = afterSeq;
  try {
    for (;;) {
      // The store first: everything committed up to now, then what was published meanwhile.
      for (const event of await store.events.list(runId)) {
        if (event.seq <= last) continue;
        last = event.seq;
        yield event;
        if (closesStream(event)) return;
      }
      const run = await store.runs.get(runId);
      if (run === undefined || (SETTLED.has(run.status) && published.every((event) => event.seq <= last))) {
        // The row can settle a moment before its last events commit: one more read of the store decides.
        for (const event of await store.events.list(runId)) {
          if (event.seq <= last) continue;
          last = event.seq;
          yield event;
          if (closesStream(event)) return;
        }
        return;
      }
      for (;;) {
        if (signal?.aborted === true) return;
        const next = published.shift();
        if (next === undefined) {
          const timedOut = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), STORE_POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = undefined;
          if (timedOut) break;
          continue;
        }
        if (next.seq <= last) continue;
        // A seq skipped: the message carrying it was lost; the store has it.
        if (next.seq !== last + 1) break;
        last = next.seq;
        yield next;
        if (closesStream(next)) return;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await stop();
  }
}
