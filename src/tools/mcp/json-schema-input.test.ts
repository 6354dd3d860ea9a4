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
});
