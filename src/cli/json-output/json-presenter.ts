import { z } from 'zod';

/**
 * The figures of the output schemas, with how many decimals each is worth printing: dollars to a
 * millionth, milliseconds to a tenth, rates to 1e-4 (see `costSchema`, `durationSchema`, `rateSchema`).
 * Raw floating-point sums (`0.00021280000000000002`) say nothing a person or script can use beyond that.
 */
export const figurePrecision = z.registry<{ decimals: number }>();

function rounded(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of a zod schema's definition the presenter follows down to the figures. */
interface SchemaDefinition {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
}

function present(value: unknown, schema: z.ZodType): unknown {
  const precision = figurePrecision.get(schema);
  if (precision !== undefined && typeof value === 'number') return rounded(value, precision.decimals);
  const definition = schema._zod.def as unknown as SchemaDefinition;
  switch (definition.type) {
    case 'optional':
    case 'nullable':
    case 'readonly':
      return present(value, definition.innerType!);
    case 'object':
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, definition.shape![key] === undefined ? item : present(item, definition.shape![key])])) : value;
    case 'array':
      return Array.isArray(value) ? value.map((item: unknown) => present(item, definition.element!)) : value;
    case 'record':
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, present(item, definition.valueType!)])) : value;
    case 'union': {
      const matching = definition.options!.find((option) => option.safeParse(value).success);
      return matching === undefined ? value : present(value, matching);
    }
    default:
      // Anything else holds no figure of ours: strings, enums, and data from outside Forge (tool inputs, results, JSON Schemas) stay exactly as they are.
      return value;
  }
}

/**
 * `value` as every `--json` output prints it: plain JSON data (class instances by their `toJSON`,
 * `undefined` fields dropped) and, given the command's output schema, every figure the schema
 * declares rounded to its precision (`figurePrecision`). Only declared figures are touched: a number
 * inside a tool's input or result is data, printed as it came.
 */
export function presentJson(value: unknown, schema?: z.ZodType): unknown {
  const plain = JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
  return schema === undefined ? plain : present(plain, schema);
}
