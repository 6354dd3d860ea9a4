import { createRequire } from 'node:module';
import type * as AjvProvider from '@modelcontextprotocol/sdk/validation/ajv';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';

/** A JSON Schema object as MCP carries it (a tool's `inputSchema`). */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

let ajv: AjvJsonSchemaValidator | undefined;

/**
 * A zod schema that validates input against a JSON Schema a remote server published, so remote
 * input is checked on the way in like any tool's and a bad call names the bad field. zod's own
 * converter is used where it understands the schema (its issues carry the field path); a schema it
 * cannot convert (e.g. with `$ref`) is checked by the MCP SDK's Ajv validator instead, whose message
 * names the field by its JSON pointer.
 */
export function inputSchemaFromJsonSchema(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch {
    // Ajv is loaded only for the rare schema zod cannot convert: loading it costs every process ~100 ms.
    ajv ??= new (createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv') as typeof AjvProvider).AjvJsonSchemaValidator();
    const validate = ajv.getValidator<Record<string, unknown>>(schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
    return z.custom<Record<string, unknown>>().superRefine((value, context) => {
      const result = validate(value);
      if (!result.valid) context.addIssue({ code: 'custom', message: result.errorMessage });
    });
  }
}
