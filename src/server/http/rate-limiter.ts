/** Whether a request may go on, and when to retry when it may not. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds until one more request is allowed (0 when allowed). */
  readonly retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  /** Requests a minute, sustained. */
  readonly perMinute: number;
  /** Requests allowed at once after an idle spell; default a quarter of a minute's, at least 10. */
  readonly burst?: number;
  /** The most callers kept at once; the longest idle are dropped first (a flood of new keys cannot grow it without bound). */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets per caller, in this process's memory: each caller may spend `burst` requests at once
 * and then `perMinute` a minute. One process only — several servers behind a balancer each count
 * their own (the scaled mode will keep buckets in Redis). A bucket idle until full is dropped (it is the
 * same as none), and at most `maxKeys` are kept: past that the longest idle go first.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly perMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions) {
    this.capacity = options.burst ?? Math.max(10, Math.ceil(options.perMinute / 4));
    this.perMs = options.perMinute / 60_000;
    this.maxKeys = options.maxKeys ?? 50_000;
    this.now = options.now ?? (() => Date.now());
  }

  /** Spends one request of `key`'s bucket when it has one. */
  take(key: string): RateDecision {
    const now = this.now();
    const found = this.buckets.get(key);
    const bucket = { tokens: found === undefined ? this.capacity : this.tokensOf(found, now), at: now };
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    // Idle buckets that have refilled are the same as none: dropped from the front, so the map shrinks once traffic does.
    for (const [idleKey, idle] of this.buckets) {
      if (this.tokensOf(idle, now) < this.capacity) break;
      this.buckets.delete(idleKey);
    }
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  private tokensOf(bucket: Bucket, now: number): number {
    return Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
  }

  /** Whether `key` has a request left, without spending it. */
  available(key: string): boolean {
    const found = this.buckets.get(key);
    return found === undefined || this.tokensOf(found, this.now()) >= 1;
  }

  /** How many callers are tracked now. */
  get size(): number {
    return this.buckets.size;
  }
}
