import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from './linear-pattern.js';

function matches(pattern: string, text: string): boolean | undefined {
  return compileLinearPattern(pattern)?.test(text);
}

describe('compileLinearPattern', () => {
  it('answers a catastrophic pattern on a long non-matching text as the backtracking engine would, without backtracking', () => {
    expect(matches('^(\\w+\\s?)+$', `${'a'.repeat(61)}!`)).toBe(false);
    expect(matches('^(\\w+\\s?)+$', `${'a'.repeat(100_000)}!`)).toBe(false);
    expect(matches('^(a|a)*$', `${'a'.repeat(100_000)}b`)).toBe(false);
    expect(matches('^(\\w+\\s?)+$', 'hello world')).toBe(true);
  });

  it('agrees with ECMAScript on the syntax the two spell differently', () => {
    const cases: Array<[string, string]> = [
      ['^[\\u0041-\\u005A]+$', 'ABC'],
      ['^[\\u0041-\\u005A]+$', 'abc'],
      ['^\\u{1F600}$', '😀'],
      ['^a\\sb$', 'a\u00a0b'],
      ['^a\\sb$', 'a\u2003b'],
      ['^a[\\s,]b$', 'a\u3000b'],
      ['^a\\Sb$', 'a b'],
      ['^a.b$', 'a\rb'],
      ['^a.b$', 'a\u2028b'],
      ['^a.b$', 'a-b'],
      ['^\\cJ$', '\n'],
      ['^a\\0$', 'a\0'],
      ['^[[]$', '['],
      ['^\\d{3}-\\d{4}$', '555-1234'],
      ['^[^\\s@]+@[^\\s@]+$', 'me@example.org'],
      ['[\\w-]+\\/(?<name>[a-z]+)', 'x/abc'],
      ['^.$', '😀'],
    ];
    for (const [pattern, text] of cases) expect(matches(pattern, text), `${pattern} on ${JSON.stringify(text)}`).toBe(new RegExp(pattern, 'u').test(text));
  });

  it('declines patterns that only backtracking can run, rather than guess', () => {
    for (const pattern of ['^(?=.*[A-Z]).+$', '(?!x)y', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<x>a)\\k<x>', '[^]', 'a{1001}', '[\\S]', '(']) {
      expect(compileLinearPattern(pattern), pattern).toBeUndefined();
    }
  });
});
