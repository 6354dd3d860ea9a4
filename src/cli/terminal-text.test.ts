import { describe, expect, it } from 'vitest';
import { terminalJson, terminalSafeValue, terminalText } from './terminal-text.js';

describe('terminal text', () => {
  it('shows every control a terminal acts on as \\xHH, keeping newlines and tabs', () => {
    const text = 'a\u001b]52;c;ZXZpbA==\u0007b\u001b[2Jc\rd\u0008e\u009b31mf\u007fg\n\th';

    expect(terminalText(text)).toBe('a\\x1b]52;c;ZXZpbA==\\x07b\\x1b[2Jc\\x0dd\\x08e\\x9b31mf\\x7fg\n\th');
  });

  it('escapes every string of a value, keys and numbers untouched', () => {
    expect(terminalSafeValue({ title: '\u001b]2;x\u0007', nested: [{ n: 1, s: '\u009b' }] })).toEqual({ title: '\\x1b]2;x\\x07', nested: [{ n: 1, s: '\\x9b' }] });
  });

  it('prints JSON with DEL and C1 escaped too, still parsing to the same value', () => {
    const value = { text: 'a\u001bb\u009bc\u007fd' };

    const json = terminalJson(value);

    // eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
    expect(json).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
