import { describe, expect, it } from 'vitest';
import { bearerTokenMatches } from './bearer-token.js';

describe('bearerTokenMatches', () => {
  const token = 'c0ffee-7d1e-4b8a-9f00';

  it('accepts exactly "Bearer <token>", the scheme in any case', () => {
    expect(bearerTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`bearer ${token}`, token)).toBe(true);
  });

  it('refuses a missing header, another scheme, a prefix and a longer value', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', `Basic ${token}`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, `Bearer ${token} extra`, token]) {
      expect(bearerTokenMatches(header, token), String(header)).toBe(false);
    }
  });
});
