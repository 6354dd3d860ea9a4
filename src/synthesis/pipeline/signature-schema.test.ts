import { describe, expect, it } from 'vitest';
import { inputJsonSchemaFromSignature, inputSchemaFromSignature } from './signature-schema.js';
import { toolRequestSchema } from './tool-request.js';

describe('input schema from a request_tool signature', () => {
  it('derives required and optional fields with their types, braces or not', () => {
    for (const signature of ['count_links({url: string, max_links?: integer}) -> {count: integer}', 'count_links(url: string, max_links?: integer)']) {
      expect(inputJsonSchemaFromSignature(signature)).toMatchObject({
        type: 'object',
        properties: { url: { type: 'string' }, max_links: { type: 'integer' } },
        required: ['url'],
      });
    }
  });

  it('validates inputs the way the signature says', () => {
    const schema = inputSchemaFromSignature('tag_words({words: string[], weights?: number[], strict: boolean})');
    expect(schema.safeParse({ words: ['a'], strict: true }).success).toBe(true);
    expect(schema.safeParse({ words: 'a', strict: true }).success).toBe(false);
    expect(schema.safeParse({ words: ['a'] }).success).toBe(false);
    expect(inputJsonSchemaFromSignature('now() -> {iso: string}')).toMatchObject({ type: 'object', properties: {} });
  });

  it('takes field names that Object.prototype also has as ordinary fields', () => {
    const schema = inputSchemaFromSignature('f({toString: string, hasOwnProperty?: integer})');

    expect(inputJsonSchemaFromSignature('f({toString: string, hasOwnProperty?: integer})')).toMatchObject({ properties: { toString: { type: 'string' }, hasOwnProperty: { type: 'integer' } }, required: ['toString'] });
    expect(schema.safeParse({ toString: 'x', hasOwnProperty: 2 }).success).toBe(true);
    expect(schema.safeParse({ hasOwnProperty: 2 }).success).toBe(false);
  });

  it('refuses what it cannot read, naming the field, before any synthesis', () => {
    const bad = [
      ['count_links', 'no "(input)" part'],
      ['f({url: URL})', 'field "url" has type "URL"'],
      ['f({url string})', '"url string" is not a "name: type" field'],
      ['f({a: string, a: number})', 'field "a" appears twice'],
      ['f({a: constructor})', 'field "a" has type "constructor"'],
      ['f({a: __proto__})', 'field "a" has type "__proto__"'],
      ['f({__proto__: string})', 'field "__proto__" has a reserved name'],
      ['f({constructor: string})', 'field "constructor" has a reserved name'],
    ] as const;
    for (const [signature, message] of bad) {
      const parsed = toolRequestSchema.safeParse({ name: 'f', purpose: 'p', signature });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain(message);
      expect(parsed.error?.issues[0]?.path).toEqual(['signature']);
    }
  });
});
