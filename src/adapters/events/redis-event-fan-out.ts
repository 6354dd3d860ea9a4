import type { z } from 'zod';
import { forgeEventSchema, liveEventSchema, type EventFanOut, type ForgeEvent, type LiveEvent } from '../../core/index.js';
import { openRedisClients, type RedisClients, type RedisConnectionOptions } from '../redis/index.js';
import { deliverEvent } from '../../events/deliver-event.js';
import { EventFanOutClosedError } from './event-fan-out-closed-error.js';

export type RedisEventFanOutOptions = RedisConnectionOptions & {
  /** Starts every channel's name: `<prefix>:run:<runId>`, `<prefix>:live`; default `forge`. */
  readonly prefix?: string;
};

/**
 * The scaled mode's `EventFanOut`, over Redis pub/sub. A run's committed events go to the channel
 * `<prefix>:run:<runId>`, one message per `publish` (a JSON array, in seq order, so a batch arrives
 * whole and in order); live events go to `<prefix>:live`, one JSON object each. Each process follows a
 * channel once, on its one subscriber connection, however many listeners it has there.
 *
 * A message that is not JSON or not a valid event for that channel (a run's channel carries only that
 * run's events) is dropped; the first such message is reported on stderr, later ones are not. A
 * listener that throws is reported and the others still get the event. While the connection is down,
 * `publish` and `publishLive` drop their events at once rather than wait for Redis (delivery is at most
 * once: a reader that misses them reads the store), and a follow resolves once Redis is back and has
 * confirmed it. After `close`, `publish` and the follow methods reject with `EventFanOutClosedError`, and
 * `publishLive` sends nothing.
 */
export class RedisEventFanOut implements EventFanOut {
  private readonly following = new Set<() => Promise<void>>();
  private reportedMalformed = false;
  private closed = false;

  static async open(options: RedisEventFanOutOptions): Promise<RedisEventFanOut> {
    return new RedisEventFanOut(await openRedisClients(options), options.prefix ?? 'forge');
  }

  private constructor(
    private readonly clients: RedisClients,
    private readonly prefix: string,
  ) {}

  async publish(runId: string, events: readonly ForgeEvent[]): Promise<void> {
    if (this.closed) throw new EventFanOutClosedError();
    if (events.length === 0 || !this.connected()) return;
    await this.clients.connection.publish(this.runChannel(runId), JSON.stringify(events));
  }

  followRun(runId: string, listener: (event: ForgeEvent) => void): Promise<() => Promise<void>> {
    const channel = this.runChannel(runId);
    return this.follow(channel, (message) => {
      for (const event of this.parse(channel, message, (value) => (Array.isArray(value) ? value : undefined), forgeEventSchema)) {
        if (event.run_id === runId) deliverEvent(listener, event);
        else this.reportMalformed(channel, `an event of run ${event.run_id}`);
      }
    });
  }

  publishLive(event: LiveEvent): void {
    if (this.closed || !this.connected()) return;
    this.clients.connection.publish(this.liveChannel(), JSON.stringify(event)).catch((error: unknown) => {
      process.stderr.write(`forge: a live event was not sent to Redis: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }

  followLive(listener: (event: LiveEvent) => void): Promise<() => Promise<void>> {
    const channel = this.liveChannel();
    return this.follow(channel, (message) => {
      for (const event of this.parse(channel, message, (value) => [value], liveEventSchema)) deliverEvent(listener, event);
    });
  }

  /** Stops every follow of this fan-out and closes the connections it opened. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.following].map((stop) => stop()));
    await this.clients.close();
  }

  /**
   * False while the connection is down: a PUBLISH would wait in its queue until Redis is back, holding
   * up the run that publishes, for events its readers will have found missing and read from the store.
   */
  private connected(): boolean {
    const { status } = this.clients.connection;
    return status === 'ready' || status === 'wait';
  }

  private async follow(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new EventFanOutClosedError();
    const unsubscribe = await this.clients.subscriber.subscribe(channel, onMessage);
    const stop = async () => {
      this.following.delete(stop);
      await unsubscribe();
    };
    this.following.add(stop);
    return stop;
  }

  /** The valid events of one message; the rest are dropped (and the first drop reported). */
  private parse<Event>(channel: string, message: string, items: (value: unknown) => readonly unknown[] | undefined, schema: z.ZodType<Event>): Event[] {
    let listed: readonly unknown[] | undefined;
    try {
      listed = items(JSON.parse(message));
    } catch {
      listed = undefined;
    }
    if (listed === undefined) {
      this.reportMalformed(channel, 'a message that is not JSON of the expected shape');
      return [];
    }
    const events: Event[] = [];
    for (const item of listed) {
      const parsed = schema.safeParse(item);
      if (parsed.success) events.push(parsed.data);
      else this.reportMalformed(channel, `a message that is not a Forge event (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    }
    return events;
  }

  private reportMalformed(channel: string, what: string): void {
    if (this.reportedMalformed) return;
    this.reportedMalformed = true;
    process.stderr.write(`forge: dropped ${what} on the Redis channel ${channel}; further malformed messages are dropped without a word.\n`);
  }

  private runChannel(runId: string): string {
    return `${this.prefix}:run:${runId}`;
  }

  private liveChannel(): string {
    return `${this.prefix}:live`;
  }
}
