import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('rate limiter', () => {
  it('allows a burst, refuses past it with when to retry, and refills with time', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, burst: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Another caller has its own bucket.
    expect(limiter.take('b').allowed).toBe(true);
    now += 1_000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    now += 60_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
  });

  it('says how long until the next request at a slow rate', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 2, burst: 1, now: () => now });
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    now += 29_000;
    expect(limiter.take('a').retryAfterSeconds).toBe(1);
  });

  it('keeps at most maxKeys callers: a flood of new keys cannot grow it, and the least recent go first', () => {
    const limiter = new RateLimiter({ perMinute: 60, burst: 1, maxKeys: 100, now: () => 0 });
    limiter.take('kept');
    for (let index = 0; index < 10_000; index += 1) {
      if (index % 50 === 0) limiter.take('kept');
      limiter.take(`flood-${index}`);
    }
    expect(limiter.size).toBe(100);
    // 'kept' was used recently, so its (empty) bucket is still there: it stays refused.
    expect(limiter.take('kept').allowed).toBe(false);
  });

  it('drops buckets that idled until full, and keeps the ones still refilling', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, burst: 2, now: () => now });
    for (let index = 0; index < 1_000; index += 1) limiter.take(`idle-${index}`);
    now += 500;
    limiter.take('busy');
    limiter.take('busy');
    expect(limiter.size).toBe(1_001);
    // One second refills one token: the idle buckets (one spent) are full again, 'busy' (two spent) is not.
    now += 1_000;
    expect(limiter.take('late').allowed).toBe(true);
    expect(limiter.size).toBe(2);
    expect(limiter.take('busy').allowed).toBe(true);
    expect(limiter.take('busy').allowed).toBe(false);
  });
});
