import { z } from 'zod';

/** The field types a signature may use, and the schema each stands for. */
const FIELD_TYPES: Readonly<Record<string, () => z.ZodType>> = {
  string: () => z.string(),
  number: () => z.number(),
  integer: () => z.number().int(),
  boolean: () => z.boolean(),
  object: () => z.record(z.string(), z.unknown()),
  array: () => z.array(z.unknown()),
};

// Never keys of anything built from data: they would reach or shadow the prototype of the input objects.
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A signature that cannot be read, with what to write instead. */
export class SignatureSyntaxError extends Error {
  constructor(message: string) {
    super(`${message}. Write the input like count_links({url: string, max_links?: integer}) -> {count: integer}; field types: ${Object.keys(FIELD_TYPES).join(', ')}, or T[] of them.`);
    this.name = 'SignatureSyntaxError';
  }
}

/** The text between the first `(` and its matching `)`: the input part of `name(input) -> output`. */
function inputPart(signature: string): string {
  const open = signature.indexOf('(');
  if (open < 0) throw new SignatureSyntaxError('the signature has no "(input)" part');
  let depth = 0;
  for (let index = open; index < signature.length; index += 1) {
    const character = signature[index];
    if (character === '(' || character === '{' || character === '[') depth += 1;
    if (character === ')' || character === '}' || character === ']') depth -= 1;
    if (depth === 0) return signature.slice(open + 1, index).trim();
  }
  throw new SignatureSyntaxError('the signature\'s "(" is never closed');
}

function fieldSchema(name: string, typeText: string): z.ZodType {
  const type = typeText.trim().toLowerCase();
  if (type.endsWith('[]')) return z.array(fieldSchema(name, type.slice(0, -2)));
  const make = Object.hasOwn(FIELD_TYPES, type) ? FIELD_TYPES[type] : undefined;
  if (make === undefined) throw new SignatureSyntaxError(`field "${name}" has type "${typeText.trim()}", which a signature cannot express`);
  return make();
}

/**
 * The model-facing input schema of a requested tool, derived from the signature the agent declared in
 * `request_tool` — never from what the author model wrote. `name({url: string, limit?: integer})` (the
 * braces are optional) becomes an object schema with `url` required and `limit` optional.
 */
export function inputSchemaFromSignature(signature: string): z.ZodObject {
  const body = inputPart(signature).replace(/^\{([\s\S]*)\}$/, '$1').trim();
  const shape = Object.create(null) as Record<string, z.ZodType>;
  if (body !== '') {
    for (const field of body.split(',').map((text) => text.trim()).filter((text) => text !== '')) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(\?)?\s*:\s*(.+)$/.exec(field);
      if (match === null) throw new SignatureSyntaxError(`"${field}" is not a "name: type" field`);
      const [, name, optional, type] = match;
      if (RESERVED_FIELD_NAMES.has(name!)) throw new SignatureSyntaxError(`field "${name}" has a reserved name (${[...RESERVED_FIELD_NAMES].join(', ')}); choose another`);
      if (Object.hasOwn(shape, name!)) throw new SignatureSyntaxError(`field "${name}" appears twice`);
      const schema = fieldSchema(name!, type!);
      shape[name!] = optional === '?' ? schema.optional() : schema;
    }
  }
  return z.object(shape);
}

/** The JSON Schema of a signature's input, as stored in the toolbox and shown to models. */
export function inputJsonSchemaFromSignature(signature: string): Record<string, unknown> {
  const schema = z.toJSONSchema(inputSchemaFromSignature(signature), { io: 'input' }) as Record<string, unknown>;
  delete schema['$schema'];
  return schema;
}
