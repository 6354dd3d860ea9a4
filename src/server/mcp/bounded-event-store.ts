import { randomUUID } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Keeps a session's most recent outgoing events so a client that lost its stream can resume with
 * `Last-Event-ID` and receive what it missed. Memory is bounded: the oldest events are dropped past
 * `capacity`, and a client resuming from a dropped event gets nothing replayed (it then re-requests).
 */
export class BoundedEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();

  constructor(private readonly capacity = 1_000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = randomUUID();
    this.events.set(eventId, { streamId, message });
    if (this.events.size > this.capacity) this.events.delete(this.events.keys().next().value as string);
    return eventId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) return '';
    let after = false;
    for (const [eventId, event] of this.events) {
      if (after && event.streamId === streamId) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return streamId;
  }
}
