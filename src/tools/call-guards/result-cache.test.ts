import { describe, expect, it } from 'vitest';
import { ResultCache, resultKey } from './result-cache.js';

const result = (output: string) => ({ output, truncated: false, untrusted: false });

describe('ResultCache', () => {
  it('holds at most its entries, dropping the least recently used first', () => {
    const cache = new ResultCache({ ttlMs: 1_000, maxEntries: 2, maxBytes: 1_000_000, clock: () => 0 });
    cache.set(resultKey('lookup', { id: 'a' }), result('A'));
    cache.set(resultKey('lookup', { id: 'b' }), result('B'));
    expect(cache.get(resultKey('lookup', { id: 'a' }))?.output).toBe('A');
    cache.set(resultKey('lookup', { id: 'c' }), result('C'));

    expect(cache.get(resultKey('lookup', { id: 'b' }))).toBeUndefined();
    expect(cache.get(resultKey('lookup', { id: 'a' }))?.output).toBe('A');
    expect(cache.get(resultKey('lookup', { id: 'c' }))?.output).toBe('C');
    expect(cache.size.entries).toBe(2);
  });

  it('holds at most its bytes (2 a code unit of key and output), and never a result larger than all of them', () => {
    // Each key is "lookup\n{"id":"x"}" (17 code units): an entry of 10 output characters is 54 bytes.
    const cache = new ResultCache({ ttlMs: 1_000, maxEntries: 100, maxBytes: 120, clock: () => 0 });
    cache.set(resultKey('lookup', { id: 'a' }), result('a'.repeat(10)));
    cache.set(resultKey('lookup', { id: 'b' }), result('b'.repeat(10)));
    expect(cache.size).toEqual({ entries: 2, bytes: 108 });
    cache.set(resultKey('lookup', { id: 'c' }), result('c'.repeat(10)));
    expect(cache.size).toEqual({ entries: 2, bytes: 108 });
    expect(cache.get(resultKey('lookup', { id: 'a' }))).toBeUndefined();

    cache.set(resultKey('lookup', { id: 'd' }), result('d'.repeat(100)));
    expect(cache.get(resultKey('lookup', { id: 'd' }))).toBeUndefined();
    expect(cache.size).toEqual({ entries: 2, bytes: 108 });
  });

  it('tells tools and inputs apart, and drops an entry once its TTL has passed', () => {
    let now = 0;
    const cache = new ResultCache({ ttlMs: 1_000, maxEntries: 10, maxBytes: 1_000_000, clock: () => now });
    cache.set(resultKey('lookup', { id: 'a' }), result('A'));

    expect(cache.get(resultKey('search', { id: 'a' }))).toBeUndefined();
    expect(cache.get(resultKey('lookup', { id: 'b' }))).toBeUndefined();
    now = 999;
    expect(cache.get(resultKey('lookup', { id: 'a' }))?.output).toBe('A');
    now = 1_000;
    expect(cache.get(resultKey('lookup', { id: 'a' }))).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});
