import { describe, expect, it } from 'vitest';
import { aliasCandidates } from './tool-name-aliases.js';

describe('aliasCandidates', () => {
  it('forgives prefixes, camelCase and listed synonyms', () => {
    expect(aliasCandidates('functions.webSearch')).toEqual(['web_search']);
    expect(aliasCandidates('browse')).toEqual(['browse', 'read_url']);
  });

  it('offers only names for names that Object.prototype also has', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(aliasCandidates(name).every((candidate) => typeof candidate === 'string'), name).toBe(true);
      expect(aliasCandidates(name)).toHaveLength(1);
    }
  });
});
