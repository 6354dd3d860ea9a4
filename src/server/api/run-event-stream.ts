import { isLiveEventBus, type ForgeEvent, type LiveEvent } from '../../core/index.js';
import type { ForgeRuntime } from '../../compose/index.js';

/** How often an idle stream sends a comment, so proxies and clients know it is alive. */
const HEARTBEAT_MS = 15_000;

/** Live fragments a slow reader may have waiting; past this the oldest are dropped (the whole text follows as `assistant-text`). */
const MAX_PENDING_LIVE = 1_000;

const encoder = new TextEncoder();

function liveFrame(event: LiveEvent): Uint8Array {
  // No id: a live fragment is not in the log, so a reconnecting reader's Last-Event-ID never points at one.
  return encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

function sseFrame(event: ForgeEvent): Uint8Array {
  // One JSON line: the data never holds a raw newline, so one `data:` field carries it.
  return encoder.encode(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * A run's events as Server-Sent Events, each with its seq as id, starting after `afterSeq`: what the
 * store holds, then live while this server runs the run (see `RunService.eventsAfter`), so a client that
 * reconnects with `Last-Event-ID` gets exactly what it missed, across a server restart too. The stream
 * is pulled: an event is read only when the client has taken the previous one, so a slow client makes
 * the server hold nothing beyond what the run itself keeps. It ends when the run's events do (its last
 * `run-end` or `run-pause` while this server runs it; what is stored otherwise), when the client goes,
 * or, on shutdown, with a `server-shutdown` event telling the client to reconnect. A resumed run's stream
 * holds the `run-end` of its interruption, then `run-resume` and the rest. While the run streams its
 * model's text, its live `assistant-text-delta` fragments come too, as frames without an id.
 */
export function runEventStream(runtime: ForgeRuntime, runId: string, afterSeq: number, options: { signal: AbortSignal; shutdown: AbortSignal }): Response {
  const events = runtime.runs.eventsAfter(runId, afterSeq, options.signal)[Symbol.asyncIterator]();
  let lastSeq = afterSeq;
  let done = false;
  let pending: Promise<IteratorResult<ForgeEvent>> | undefined;
  const live: LiveEvent[] = [];
  let liveArrived: (() => void) | undefined;
  const unsubscribeLive = isLiveEventBus(runtime.bus)
    ? runtime.bus.subscribeLive((event) => {
        if (event.run_id !== runId || done) return;
        live.push(event);
        if (live.length > MAX_PENDING_LIVE) live.shift();
        liveArrived?.();
      })
    : () => {};
  // Ending the reader does not wait: a generator waiting for the run's next event ends when it comes (or the run does).
  const finish = async () => {
    if (done) return;
    done = true;
    unsubscribeLive();
    void events.return?.()?.catch(() => undefined);
  };
  const shutdown = new Promise<'shutdown'>((resolve) => {
    if (options.shutdown.aborted) resolve('shutdown');
    options.shutdown.addEventListener('abort', () => resolve('shutdown'), { once: true });
  });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: 2000\n: run ${runId} after seq ${afterSeq}\n\n`));
    },
    async pull(controller) {
      if (done) return;
      // An event asked for before a heartbeat is still the one to wait for.
      const next = (pending ??= events.next());
      let timer: NodeJS.Timeout | undefined;
      const heartbeat = new Promise<'heartbeat'>((resolve) => (timer = setTimeout(() => resolve('heartbeat'), HEARTBEAT_MS)));
      const fragment = new Promise<'live'>((resolve) => {
        liveArrived = () => resolve('live');
        if (live.length > 0) resolve('live');
      });
      const outcome = await Promise.race([next, heartbeat, shutdown, fragment]);
      liveArrived = undefined;
      clearTimeout(timer);
      if (outcome === 'live') {
        for (const event of live.splice(0)) controller.enqueue(liveFrame(event));
        return;
      }
      if (outcome === 'heartbeat') {
        controller.enqueue(encoder.encode(': heartbeat\n\n'));
        return;
      }
      pending = undefined;
      if (outcome === 'shutdown') {
        controller.enqueue(encoder.encode(`event: server-shutdown\ndata: ${JSON.stringify({ run_id: runId, last_seq: lastSeq })}\n\n`));
        await finish();
        controller.close();
        return;
      }
      if (outcome.done === true) {
        await finish();
        controller.close();
        return;
      }
      lastSeq = outcome.value.seq;
      controller.enqueue(sseFrame(outcome.value));
    },
    async cancel() {
      await finish();
    },
  });
  options.signal.addEventListener('abort', () => void finish(), { once: true });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
}
