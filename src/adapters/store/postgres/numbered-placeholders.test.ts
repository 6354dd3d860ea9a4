import { describe, expect, it } from 'vitest';
import { numberedPlaceholders } from './numbered-placeholders.js';

describe('numberedPlaceholders', () => {
  it('numbers each placeholder in order', () => {
    expect(numberedPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?) LIMIT ?')).toBe('SELECT a FROM t WHERE b = $1 AND c IN ($2, $3) LIMIT $4');
  });

  it('leaves a ? inside string literals, quoted identifiers and comments alone', () => {
    const sql = `SELECT '?', 'it''s ?', "odd?name", x -- what?
      FROM t /* really? */ WHERE id LIKE ? ESCAPE '\\' AND y = ?`;

    expect(numberedPlaceholders(sql)).toBe(`SELECT '?', 'it''s ?', "odd?name", x -- what?
      FROM t /* really? */ WHERE id LIKE $1 ESCAPE '\\' AND y = $2`);
  });

  it('returns a statement without placeholders unchanged, and the same text for the same statement', () => {
    expect(numberedPlaceholders('SELECT 1')).toBe('SELECT 1');
    expect(numberedPlaceholders('UPDATE t SET a = ? WHERE b = ?')).toBe(numberedPlaceholders('UPDATE t SET a = ? WHERE b = ?'));
  });
});
