import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from './reconnect-backoff.js';

describe('reconnectDelayMs', () => {
  it('doubles from the initial wait and stays at the cap', () => {
    const backoff = { initialMs: 500, maxMs: 5_000 };

    expect([1, 2, 3, 4, 5, 6, 50].map((attempts) => reconnectDelayMs(attempts, backoff))).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });
});
