import type { ForgeEvent, LiveEvent } from '../core/index.js';

/** Calls `listener` with `event`; a listener that throws is reported on stderr, so one broken consumer cannot stop the others. */
export function deliverEvent<Event extends ForgeEvent | LiveEvent>(listener: (event: Event) => void, event: Event): void {
  try {
    listener(event);
  } catch (error) {
    process.stderr.write(`forge: an event listener failed on ${event.type}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
