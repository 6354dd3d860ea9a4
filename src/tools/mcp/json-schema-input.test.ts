import { describe, expect, it } from 'vitest';
import { inputSchemaFromJsonSchema } from './json-schema-input.js';

describe('inputSchemaFromJsonSchema', () => {
  it('converts a schema zod understands, and its issues carry the field path', () => {
    const schema = inputSchemaFromJsonSchema({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] });
    expect(schema.safeParse({ count: 3 }).success).toBe(true);
    const refused = schema.safeParse({ count: 'three' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['count']);
  });

  it('checks a schema zod cannot convert (if/then) with Ajv, loaded on demand, and names what failed', () => {
    const schema = inputSchemaFromJsonSchema({
      type: 'object',
      properties: { kind: { type: 'string' }, size: { type: 'integer' } },
      if: { properties: { kind: { const: 'box' } } },
      then: { required: ['size'] },
    });
    expect(schema.safeParse({ kind: 'box', size: 2 }).success).toBe(true);
    expect(schema.safeParse({ kind: 'bag' }).success).toBe(true);
    const refused = schema.safeParse({ kind: 'box' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/size/);
  });

  it('runs a remote pattern on a linear-time engine, so a catastrophic one answers at once', () => {
    const schema = inputSchemaFromJsonSchema({ type: 'object', properties: { label: { type: 'string', pattern: '^(\\w+\\s?)+$' } }, required: ['label'] });
    expect(schema.safeParse({ label: 'hello world' }).success).toBe(true);
    // With JavaScript's RegExp this one call backtracks for minutes.
    const refused = schema.safeParse({ label: `${'a'.repeat(61)}!` });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['label'], message: 'must match pattern "^(\\w+\\s?)+$"' });
  });

  it('checks patternProperties and nested patterns the same way', () => {
    const schema = inputSchemaFromJsonSchema({
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'integer' } },
      properties: { items: { type: 'array', items: { type: 'string', pattern: '^(x+x+)+y$' } } },
    });
    expect(schema.safeParse({ aaa: 1, items: ['xxy'] }).success).toBe(true);
    expect(schema.safeParse({ aaa: 'one' }).success).toBe(false);
    expect(schema.safeParse({ items: [`${'x'.repeat(5000)}`] }).success).toBe(false);
  });

  it('leaves a pattern only backtracking can run to the server rather than refuse good input', () => {
    const schema = inputSchemaFromJsonSchema({ type: 'object', properties: { password: { type: 'string', pattern: '^(?=.*[A-Z]).{8,}$' } } });
    expect(schema.safeParse({ password: 'lowercase only' }).success).toBe(true);
    expect(schema.safeParse({ password: 42 }).success).toBe(false);
  });
});
