import { describe, expect, it } from 'vitest';
import { fromJsonColumn, toJsonColumn } from './json-column.js';

describe('JSON columns', () => {
  it('keeps JSON null and an absent value apart', () => {
    expect(toJsonColumn(null)).toBe('null');
    expect(toJsonColumn(undefined)).toBeNull();
    expect(fromJsonColumn('null')).toBeNull();
    expect(fromJsonColumn(null)).toBeUndefined();
  });

  it('reads back what it wrote, key order included', () => {
    const value = { z: [1, { y: 'ü🧪' }], a: null, '': '\ud800' };

    expect(JSON.stringify(fromJsonColumn(toJsonColumn(value)))).toBe(JSON.stringify(value));
  });
});
