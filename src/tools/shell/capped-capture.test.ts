import { describe, expect, it } from 'vitest';
import { captureCapped } from './capped-capture.js';

describe('captureCapped', () => {
  it('keeps the first bytes, counts all of them and says so', () => {
    const capture = captureCapped(5);
    for (const chunk of ['abc', 'defg', 'hij']) capture.append(Buffer.from(chunk));
    expect(capture.truncated).toBe(true);
    expect(capture.text()).toBe('abcde\n[truncated by Forge: kept the first 5 of 10 bytes]');
  });

  it('returns everything unmarked when it fits', () => {
    const capture = captureCapped(5);
    capture.append(Buffer.from('abcde'));
    expect(capture.truncated).toBe(false);
    expect(capture.text()).toBe('abcde');
  });

  it('does not show half a character where the cut split one', () => {
    const capture = captureCapped(5);
    capture.append(Buffer.from('ééé'));
    expect(capture.text()).toBe('éé\n[truncated by Forge: kept the first 5 of 6 bytes]');
  });
});
