import type { EventBus, ForgeEvent, LiveEvent, LiveEventBus } from '../core/index.js';
import type { SecretRedactor } from '../security/redaction/index.js';
import { deliverEvent } from './deliver-event.js';

export interface InProcessEventBusOptions {
  /** Every event is redacted with it before any listener sees it; the runtime's bus always has one. */
  readonly redactor?: SecretRedactor;
}

type Listener = (event: ForgeEvent) => void;
type LiveListener = (event: LiveEvent) => void;

/**
 * The embedded event bus: synchronous fan-out inside one process. With a redactor, the bus is where
 * secrets leave events: the run log, the store, the terminal and the API all listen here, so none of
 * them ever receives a known secret or a URL's credentials. A listener that throws is isolated
 * (reported to stderr) so one broken consumer cannot stop a run.
 *
 * Listeners are called synchronously and must be quick; a consumer that may be slow (a network
 * client) reads a run's events through its run handle's feed, which buffers, never here. Run listeners
 * are kept per run, so a thousand concurrent runs cost each event one lookup, not a thousand filters.
 */
export class InProcessEventBus implements EventBus, LiveEventBus {
  private readonly listeners = new Set<Listener>();
  private readonly liveListeners = new Set<LiveListener>();
  private readonly runListeners = new Map<string, Set<Listener>>();

  constructor(private readonly options: InProcessEventBusOptions = {}) {}

  publish(event: ForgeEvent): void {
    const published = this.options.redactor?.redactValue(event) ?? event;
    const forRun = this.runListeners.get(event.run_id);
    if (forRun !== undefined) for (const listener of forRun) deliverEvent(listener, published);
    for (const listener of this.listeners) deliverEvent(listener, published);
  }

  /** Live events are redacted like the others, fragment by fragment; the whole text follows in `assistant-text`. */
  publishLive(event: LiveEvent): void {
    if (this.liveListeners.size === 0) return;
    const published = this.options.redactor?.redactValue(event) ?? event;
    for (const listener of this.liveListeners) deliverEvent(listener, published);
  }

  subscribeLive(listener: LiveListener): () => void {
    this.liveListeners.add(listener);
    return () => {
      this.liveListeners.delete(listener);
    };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  subscribeRun(runId: string, listener: Listener): () => void {
    let forRun = this.runListeners.get(runId);
    if (forRun === undefined) this.runListeners.set(runId, (forRun = new Set()));
    forRun.add(listener);
    return () => {
      forRun.delete(listener);
      if (forRun.size === 0 && this.runListeners.get(runId) === forRun) this.runListeners.delete(runId);
    };
  }
}
