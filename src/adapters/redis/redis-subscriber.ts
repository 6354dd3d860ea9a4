import type { Redis } from 'ioredis';

type MessageListener = (message: string) => void;

interface Subscription {
  readonly listeners: Set<MessageListener>;
  /** Settles once Redis has confirmed the SUBSCRIBE. */
  readonly confirmed: Promise<void>;
}

/**
 * One process's pub/sub connection to Redis, shared by everything in it that follows channels (the
 * event fan-out's runs, the job queue's cancellations). Each channel is subscribed once however many
 * listeners follow it, and unsubscribed when the last one stops. A listener that throws is reported
 * on stderr and does not stop the others. Redis re-subscribes every channel after a reconnect;
 * messages published while the connection was down are lost (pub/sub is at most once).
 */
export class RedisSubscriber {
  private readonly subscriptions = new Map<string, Subscription>();
  private closed = false;

  /** `connection` is this subscriber's own (it enters subscriber mode, and `close` quits it). */
  constructor(private readonly connection: Redis) {
    connection.on('message', (channel: string, message: string) => this.deliver(channel, message));
  }

  /**
   * Calls `listener` with every message published on `channel` from the moment this resolves (Redis
   * has confirmed the subscription). Returns the function that stops it; calling that again does nothing.
   */
  async subscribe(channel: string, listener: MessageListener): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('The Redis subscriber is closed.');
    let subscription = this.subscriptions.get(channel);
    if (subscription === undefined) {
      subscription = { listeners: new Set(), confirmed: this.connection.subscribe(channel).then(() => undefined) };
      this.subscriptions.set(channel, subscription);
    }
    const current = subscription;
    current.listeners.add(listener);
    try {
      await current.confirmed;
    } catch (error) {
      await this.forget(channel, current, listener);
      throw error;
    }
    let following = true;
    return async () => {
      if (!following) return;
      following = false;
      await this.forget(channel, current, listener);
    };
  }

  /** Quits the connection; every listener stops. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.clear();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }

  private async forget(channel: string, subscription: Subscription, listener: MessageListener): Promise<void> {
    subscription.listeners.delete(listener);
    if (subscription.listeners.size > 0 || this.subscriptions.get(channel) !== subscription) return;
    this.subscriptions.delete(channel);
    // A SUBSCRIBE sent after this one (a new follower) still wins: Redis runs one connection's commands in order.
    if (!this.closed) await this.connection.unsubscribe(channel).catch(() => undefined);
  }

  private deliver(channel: string, message: string): void {
    const subscription = this.subscriptions.get(channel);
    if (subscription === undefined) return;
    for (const listener of subscription.listeners) {
      try {
        listener(message);
      } catch (error) {
        process.stderr.write(`forge: a listener of the Redis channel ${channel} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
}
