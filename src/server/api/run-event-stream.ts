import { isLiveEventBus, type ForgeEvent, type LiveEvent } from '../../core/index.js';
import type { EventStreamLimits, ForgeRuntime } from '../../compose/index.js';
import type { ClientConnection } from './api-route.js';
import type { EventStreamSlot } from './event-stream-slots.js';

/** How often an idle stream sends a comment, so proxies and clients know it is alive. */
const HEARTBEAT_MS = 15_000;

/** Live fragments a slow reader may have waiting; past this the oldest are dropped (the whole text follows as `assistant-text`). */
const MAX_PENDING_LIVE = 1_000;

const encoder = new TextEncoder();

function liveText(event: LiveEvent): string {
  // No id: a live fragment is not in the log, so a reconnecting reader's Last-Event-ID never points at one.
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
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
 *
 * A client that takes nothing is dropped: when a frame waits `idleTimeoutMs` without being taken, or
 * when what the server holds for the connection unsent (the response's buffer) and the next frame would
 * pass `maxUnsentBytes`, the connection is reset and the stream ends. Either way, and
 * whenever the stream ends, `slot` is released.
 */
export function runEventStream(
  runtime: ForgeRuntime,
  runId: string,
  afterSeq: number,
  options: { signal: AbortSignal; shutdown: AbortSignal; slot: EventStreamSlot; limits: Pick<EventStreamLimits, 'idleTimeoutMs' | 'maxUnsentBytes'>; connection: ClientConnection },
): Response {
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
  let idle: NodeJS.Timeout | undefined;
  const finish = async () => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    options.slot.release();
    unsubscribeLive();
    void events.return?.()?.catch(() => undefined);
  };
  const shutdown = new Promise<'shutdown'>((resolve) => {
    if (options.shutdown.aborted) resolve('shutdown');
    options.shutdown.addEventListener('abort', () => resolve('shutdown'), { once: true });
  });
  /** Hands `frame` to the connection, or drops a client that cannot take it. */
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, frame: Uint8Array) => {
    if (options.connection.unsentBytes() + frame.byteLength > options.limits.maxUnsentBytes) {
      drop(controller, `more than ${options.limits.maxUnsentBytes} bytes would wait unsent`);
      return;
    }
    controller.enqueue(frame);
    // Taken when the next pull comes; a client that takes nothing for this long is gone as far as the server cares.
    clearTimeout(idle);
    idle = setTimeout(() => drop(controller, `nothing was taken for ${options.limits.idleTimeoutMs} ms`), options.limits.idleTimeoutMs);
  };
  // Reset, not closed: a graceful close would leave the backlog in the kernel until the client read it all.
  const drop = (controller: ReadableStreamDefaultController<Uint8Array>, reason: string) => {
    void finish();
    options.connection.reset();
    controller.error(new Error(`The event stream of run ${runId} was dropped: its client is not reading (${reason}).`));
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send(controller, encoder.encode(`retry: 2000\n: run ${runId} after seq ${afterSeq}\n\n`));
    },
    async pull(controller) {
      clearTimeout(idle);
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
        send(controller, encoder.encode(live.splice(0).map(liveText).join('')));
        return;
      }
      if (outcome === 'heartbeat') {
        send(controller, encoder.encode(': heartbeat\n\n'));
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
      send(controller, sseFrame(outcome.value));
    },
    async cancel() {
      await finish();
    },
  });
  options.signal.addEventListener('abort', () => void finish(), { once: true });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
}
