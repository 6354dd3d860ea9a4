import { z } from 'zod';
import { TOOL_NAME_PATTERN } from '../../core/index.js';
import { inputSchemaFromJsonSchema } from '../../tools/mcp/index.js';
import { capabilityNames, sortCapabilityNames, type CapabilityName, type JsonValue } from '../sandbox/index.js';

/** A JSON Schema for the tool's input: an object schema, as every model provider requires of tool parameters. */
export type ToolInputSchema = { readonly type: 'object' } & Readonly<Record<string, JsonValue>>;

/**
 * What a tool module declares about itself. `capabilities` is a promise the harness holds it to: the
 * sandbox grants exactly these, and promotion requires every capability used in its tests to be listed.
 */
export interface ToolModuleMeta {
  /** Registry name, `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the tool does, for the model that will call it. */
  readonly description: string;
  readonly input: ToolInputSchema;
  /** Capabilities `run` needs, no duplicates, in registry order after parsing. */
  readonly capabilities: readonly CapabilityName[];
}

const inputSchema = z
  .looseObject({
    type: z.literal('object', { error: 'must be "object": a tool takes one object of named arguments' }),
    properties: z.record(z.string(), z.record(z.string(), z.unknown()), { error: 'must map each argument name to its JSON Schema' }).optional(),
    required: z.array(z.string(), { error: 'must be a list of argument names' }).optional(),
  })
  .superRefine((schema, context) => {
    const known = new Set(Object.keys(schema.properties ?? {}));
    for (const name of schema.required ?? []) {
      if (!known.has(name)) context.addIssue({ code: 'custom', path: ['required'], message: `names "${name}", which is not in properties` });
    }
    try {
      inputSchemaFromJsonSchema(schema);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `is not a JSON Schema Forge can validate with: ${error instanceof Error ? error.message : String(error)}` });
    }
  });

/** The zod schema `parseToolModule` validates `meta` with; exported so other entry points judge alike. */
export const toolModuleMetaSchema = z.object(
  {
    name: z.string({ error: 'must be a string' }).regex(TOOL_NAME_PATTERN, { error: 'must match ^[a-zA-Z0-9_-]{1,64}$' }),
    description: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(4000, { error: 'must be at most 4000 characters' }),
    input: inputSchema,
    capabilities: z
      .array(z.enum(capabilityNames as [CapabilityName, ...CapabilityName[]], { error: `must each be one of ${capabilityNames.join(', ')}` }), {
        error: 'must be a list, e.g. [] or ["fetch", "log"]',
      })
      .refine((names) => new Set(names).size === names.length, { error: 'must not repeat a capability' })
      .transform((names) => sortCapabilityNames(names)),
  },
  { error: 'meta must be an object' },
);
