import type { EventBus, ForgeEvent } from '../core/index.js';

/**
 * The embedded event bus: synchronous fan-out inside one process. A listener that throws is isolated
 * (reported once to stderr) so one broken consumer cannot stop a run.
 */
export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<(event: ForgeEvent) => void>();

  publish(event: ForgeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
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
