import type { EventBus, ForgeEvent } from '../core/index.js';
import type { SecretRedactor } from '../redaction/index.js';

export interface InProcessEventBusOptions {
  /** Every event is redacted with it before any listener sees it; the runtime's bus always has one. */
  readonly redactor?: SecretRedactor;
}

/**
 * The embedded event bus: synchronous fan-out inside one process. With a redactor, the bus is where
 * secrets leave events: the run log, the store, the terminal and the API all listen here, so none of
 * them ever receives a known secret or a URL's credentials. A listener that throws is isolated
 * (reported once to stderr) so one broken consumer cannot stop a run.
 */
export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<(event: ForgeEvent) => void>();

  constructor(private readonly options: InProcessEventBusOptions = {}) {}

  publish(event: ForgeEvent): void {
    const published = this.options.redactor?.redactValue(event) ?? event;
    for (const listener of this.listeners) {
      try {
        listener(published);
      } catch (error) {
        process.stderr.write(`forge: an event listener failed on ${event.type}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }

  subscribe(listener: (event: ForgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
