import { z } from 'zod';
import { compileSchemaCheck } from './json-schema-validator.js';

/** A JSON Schema object as MCP carries it (a tool's `inputSchema`). */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/**
 * A zod schema that validates input against a JSON Schema from outside Forge (a remote server's tool,
 * a tool module's `meta.input`), so input is checked on the way in like any tool's and a bad call names
 * the bad field. zod's own converter is used where it understands the schema and the schema has no
 * regular expressions (its issues carry the field path). A schema with `pattern` or `patternProperties`,
 * or one zod cannot convert (e.g. with `$ref`), is checked by `compileSchemaCheck` instead, whose
 * patterns run in linear time (zod would run them with JavaScript's backtracking RegExp, which a hostile
 * pattern turns into minutes of CPU); its issues carry the field path too. Throws when neither can
 * compile the schema.
 */
export function inputSchemaFromJsonSchema(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  if (!hasPatterns(schema)) {
    try {
      return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
    } catch {
      // Checked by the validator below.
    }
  }
  const check = compileSchemaCheck(schema);
  return z.custom<Record<string, unknown>>().superRefine((value, context) => {
    for (const problem of check(value)) context.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
  });
}

/**
 * Whether any part of the schema carries a regular expression. Walked without recursion: the schema is
 * data from outside, and nesting alone must not exhaust the stack.
 */
function hasPatterns(schema: JsonSchemaObject): boolean {
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (!Array.isArray(node) && (typeof record['pattern'] === 'string' || (typeof record['patternProperties'] === 'object' && record['patternProperties'] !== null))) return true;
    for (const value of Object.values(record)) pending.push(value);
  }
  return false;
}
