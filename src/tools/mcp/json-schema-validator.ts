import { createRequire } from 'node:module';
import type * as AjvProvider from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { compileLinearPattern } from '../../security/index.js';

/** One way a value fails a schema: where (the path of the field, empty for the value itself) and what. */
export interface SchemaProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Checks a value against one compiled schema; an empty list means it conforms. */
export type SchemaCheck = (value: unknown) => readonly SchemaProblem[];

interface AjvError {
  readonly instancePath: string;
  readonly message?: string;
}
interface AjvValidateFunction {
  (value: unknown): boolean;
  errors?: readonly AjvError[] | null;
}
interface AjvInstance {
  compile(schema: object): AjvValidateFunction;
  getSchema(id: string): AjvValidateFunction | undefined;
}
type AjvConstructor = new (options: Readonly<Record<string, unknown>>) => AjvInstance;

let shared: { readonly ajv: AjvInstance; readonly sdkValidator: jsonSchemaValidator } | undefined;

/**
 * Compiles a JSON Schema from outside Forge into a check whose problems carry field paths. The engine is
 * the MCP SDK's Ajv, configured as the SDK configures it (formats checked, all errors), except that
 * `pattern` and `patternProperties` run on a linear-time engine (`compileLinearPattern`) instead of
 * JavaScript's backtracking RegExp: a schema from a remote server is untrusted input, and a pattern such
 * as `^(\w+\s?)+$` would otherwise hold the thread for minutes on a 62-character string. A pattern only
 * backtracking can run (lookaround, backreferences) is not checked here; the server still checks it.
 * Throws when Ajv cannot compile the schema.
 */
export function compileSchemaCheck(schema: object): SchemaCheck {
  const { ajv } = ajvWithLinearPatterns();
  const id = (schema as { $id?: unknown }).$id;
  // As the SDK does: a schema with an $id is compiled once, since Ajv refuses to register an id twice.
  const validate = typeof id === 'string' ? (ajv.getSchema(id) ?? ajv.compile(schema)) : ajv.compile(schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({ path: pathOf(error.instancePath), message: error.message ?? 'does not match the schema' }));
  };
}

/** The same engine as the SDK's `jsonSchemaValidator`, for the SDK client's own checks (tool output schemas). */
export function linearPatternSchemaValidator(): jsonSchemaValidator {
  return ajvWithLinearPatterns().sdkValidator;
}

// Created on first use: loading Ajv costs about 100 ms.
function ajvWithLinearPatterns(): { readonly ajv: AjvInstance; readonly sdkValidator: jsonSchemaValidator } {
  if (shared !== undefined) return shared;
  const require = createRequire(import.meta.url);
  const provider = require('@modelcontextprotocol/sdk/validation/ajv') as typeof AjvProvider;
  // Ajv and its formats are the SDK's own dependencies, loaded from where the SDK loads them, so this is
  // the SDK's validator with one option changed.
  const sdkRequire = createRequire(require.resolve('@modelcontextprotocol/sdk/validation/ajv'));
  const Ajv = (sdkRequire('ajv') as { default: AjvConstructor }).default;
  const addFormats = (sdkRequire('ajv-formats') as { default: (ajv: AjvInstance) => void }).default;
  const regExp = Object.assign(
    (pattern: string) => {
      const compiled = compileLinearPattern(pattern);
      return { test: (text: string) => compiled === undefined || compiled.test(text), toString: () => `/${pattern}/` };
    },
    // Ajv names the engine in the code it generates for standalone use, which Forge does not use.
    { code: 'forgeLinearPattern' },
  );
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp } });
  addFormats(ajv);
  shared = { ajv, sdkValidator: new provider.AjvJsonSchemaValidator(ajv as unknown as ConstructorParameters<typeof AjvProvider.AjvJsonSchemaValidator>[0]) };
  return shared;
}

/** A JSON pointer (`/items/0/name`) as path segments (`['items', 0, 'name']`). */
function pathOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}
