import { PythonError } from './python-number.js';
import type { RetailData } from './retail-data.js';

/** One parameter's JSON Schema, key for key as τ-bench's `get_info()` gives it. */
export type RetailParameterSchema =
  | { readonly type: 'string'; readonly enum?: readonly string[]; readonly description: string }
  | { readonly type: 'array'; readonly items: { readonly type: 'string' }; readonly description: string };

/** The `order_id` parameter, the same in every tool that takes one. */
export const orderIdParameter = {
  type: 'string',
  description: "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
} as const;

/** A tool's `parameters` JSON Schema; every τ-bench retail parameter is required. */
export interface RetailToolParameters {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, RetailParameterSchema>>;
  readonly required: readonly string[];
}

/** A τ-bench retail tool: its `get_info()` function description and its `invoke`. */
export interface RetailToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: RetailToolParameters;
  /** True for the tools that change the data: cancel, exchange, return and the four modify tools. */
  readonly writes: boolean;
  /**
   * Runs the tool as τ-bench's `Tool.invoke(data=data, **kwargs)` does and returns its exact string,
   * domain errors included (`Error: order not found`). Throws what Python would raise instead: the
   * TypeError of a missing or unexpected argument, with CPython's message, and the KeyError or
   * IndexError of data the tool does not expect. Arguments of the wrong JSON type are refused with a
   * TypeError of our own (Python checks no types; it would fail somewhere later or not at all).
   */
  invoke(data: RetailData, kwargs: Readonly<Record<string, unknown>>): string;
}

type ArgumentsOf<Properties extends Record<string, RetailParameterSchema>> = {
  readonly [Name in keyof Properties]: Properties[Name] extends { readonly type: 'array' } ? readonly string[] : string;
};

/** Builds a tool whose `run` receives its arguments bound and checked the way Python's call would bind them. */
export function defineRetailTool<const Properties extends Record<string, RetailParameterSchema>>(spec: {
  readonly name: string;
  readonly description: string;
  readonly properties: Properties;
  readonly writes: boolean;
  readonly run: (data: RetailData, args: ArgumentsOf<Properties>) => string;
}): RetailToolDefinition {
  const parameters: RetailToolParameters = { type: 'object', properties: spec.properties, required: Object.keys(spec.properties) };
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    writes: spec.writes,
    invoke: (data, kwargs) => spec.run(data, bindArguments(spec.name, parameters, kwargs) as ArgumentsOf<Properties>),
  };
}

function bindArguments(toolName: string, parameters: RetailToolParameters, kwargs: Readonly<Record<string, unknown>>): Record<string, string | readonly string[]> {
  const className = toolName.replace(/(?:^|_)([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  const invoke = `${className}.invoke()`;
  // `invoke(data=self.data, **kwargs)` fails at the call site, which names the method by its module.
  if (Object.hasOwn(kwargs, 'data')) throw new PythonError('TypeError', `tau_bench.envs.retail.tools.${toolName}.${invoke} got multiple values for keyword argument 'data'`);
  const unexpected = Object.keys(kwargs).find((key) => !Object.hasOwn(parameters.properties, key));
  if (unexpected !== undefined) throw new PythonError('TypeError', `${invoke} got an unexpected keyword argument '${unexpected}'`);
  const missing = parameters.required.filter((name) => !Object.hasOwn(kwargs, name));
  if (missing.length > 0) throw new PythonError('TypeError', `${invoke} missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${pythonNameList(missing)}`);
  const bound: Record<string, string | readonly string[]> = {};
  for (const [name, schema] of Object.entries(parameters.properties)) {
    const value = kwargs[name];
    if (schema.type === 'string' ? typeof value !== 'string' : !Array.isArray(value) || !value.every((element) => typeof element === 'string')) {
      throw new PythonError('TypeError', `${invoke} argument '${name}' must be ${schema.type === 'string' ? 'str' : 'a list of str'}, not ${pythonTypeName(value)}`);
    }
    bound[name] = value as string | readonly string[];
  }
  return bound;
}

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`: how CPython lists missing arguments. */
function pythonNameList(names: readonly string[]): string {
  const quoted = names.map((name) => `'${name}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'dict';
}
