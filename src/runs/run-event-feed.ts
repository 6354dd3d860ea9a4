import type { EventBus, ForgeEvent } from '../core/index.js';

/**
 * One run's events as they happen, for any number of readers, each from the seq it asks for: what is
 * already here first, then every new event, until `run-end` (or until the run's work is over). It
 * listens only to its own run's events.
 */
export class RunEventFeed {
  private readonly events: ForgeEvent[] = [];
  private readonly waiting = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(bus: EventBus, runId: string) {
    this.unsubscribe = bus.subscribeRun(runId, (event) => {
      if (this.closed) return;
      this.events.push(event);
      this.wake();
    });
  }

  /** The seq of the first event this feed holds (the next one to come when it holds none yet). */
  get firstSeq(): number | undefined {
    return this.events[0]?.seq;
  }

  /** Whether the run has emitted `run-end`. */
  get ended(): boolean {
    return this.events.at(-1)?.type === 'run-end';
  }

  private wake(): void {
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }

  /** Stops listening; readers get what is here and then finish. */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.wake();
  }

  async *from(fromSeq: number): AsyncIterable<ForgeEvent> {
    let index = this.events.findIndex((event) => event.seq >= fromSeq);
    if (index < 0) index = this.events.length;
    for (;;) {
      while (index < this.events.length) {
        const event = this.events[index]!;
        index += 1;
        if (event.seq < fromSeq) continue;
        yield event;
        if (event.type === 'run-end') return;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => this.waiting.add(resolve));
    }
  }
}
