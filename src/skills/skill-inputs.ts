import { ConfigurationError, type Tool } from '../core/index.js';
import type { ArgumentBinding, SkillDocument, VariableSchema } from './document/skill-document.js';
import { parseJsonPath, valueAtPath, type JsonPath } from './json-path.js';
import { SkillInputError } from './skill-errors.js';
import { stepSideEffect } from './step-side-effect.js';

/** A user-supplied value: a variable, or an override for a value that would otherwise be resolved. */
export type InputValue = string | number | boolean | readonly (string | number)[];

/** What a replay is given, checked: the variables (typed) and the overrides of step values. */
export interface SkillInputs {
  readonly variables: Readonly<Record<string, InputValue>>;
  readonly overrides: Readonly<Record<string, InputValue>>;
}

/** `--input k=v` pairs as a record; the value is everything after the first `=`. */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigurationError('--input', `"${pair}" is not name=value.`, 'Write --input topic=lumen (repeat --input for each variable; a list as item_ids=a,b or item_ids=\'["a","b"]\').');
    inputs[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return inputs;
}

export function dependentValueName(step: number, path: string): string {
  return `steps[${step}].${path}`;
}

/** `steps[1].url` and the like: values a replay resolves from fresh results (callers may override them). */
export function dependentValueNames(document: SkillDocument): string[] {
  const known = (binding: ArgumentBinding): boolean => (binding.kind === 'template' ? Object.values(binding.slots).every(known) : binding.kind === 'input' || binding.kind === 'constant');
  return document.steps.flatMap((step, index) => step.arguments.filter(({ binding }) => !known(binding)).map(({ path }) => dependentValueName(index, path)));
}

/** Every step value a caller may give instead of the skill's own binding (constants included). */
function overridableValueNames(document: SkillDocument): Set<string> {
  return new Set(document.steps.flatMap((step, index) => step.arguments.filter(({ binding }) => binding.kind !== 'input').map(({ path }) => dependentValueName(index, path))));
}

/**
 * The arguments of steps that write which send a constant the skill does not pin: each makes a replay
 * refuse. Whether a step writes is decided as a replay decides it (`stepSideEffect`), by the registered
 * tool (`toolOf`) for the input the skill was recorded with.
 */
export function unpinnedWriteConstants(document: SkillDocument, toolOf: (tool: string) => Pick<Tool, 'sideEffect'> | undefined = () => undefined): { name: string; value: unknown }[] {
  return document.steps.flatMap((step, index) =>
    stepSideEffect(step, toolOf(step.tool), document.recordings[0]?.steps[index]?.input) === 'read'
      ? []
      : step.arguments.flatMap(({ path, binding }) => {
          const slots = binding.kind === 'template' ? Object.values(binding.slots) : [binding];
          return slots.filter((slot) => slot.kind === 'constant' && !slot.pinned).map((slot) => ({ name: dependentValueName(index, path), value: (slot as { value: unknown }).value }));
        }),
  );
}

function describeInputs(document: SkillDocument): string {
  const variables = Object.entries(document.variables_schema.properties).map(
    ([name, variable]) => `${name} (${variable.type === 'array' ? `list of ${variable.items?.type ?? 'string'}` : variable.type}${document.variables_schema.required.includes(name) ? ', required' : ''}, e.g. ${JSON.stringify(variable.examples[0])})`,
  );
  return variables.length === 0 ? 'This skill takes no inputs.' : `Inputs of ${document.name}: ${variables.join('; ')}.`;
}

function listOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return text === '' ? [] : text.split(',').map((item) => item.trim());
}

function coerceScalar(name: string, type: string, value: unknown, document: SkillDocument): string | number | boolean {
  const text = String(value).trim();
  const wrong = (expected: string) => new SkillInputError(name, `expected ${expected}, got ${JSON.stringify(value)}.`, describeInputs(document));
  switch (type) {
    case 'number': {
      const parsed = typeof value === 'number' ? value : Number(text);
      if (text === '' || !Number.isFinite(parsed)) throw wrong('a number');
      return parsed;
    }
    case 'integer': {
      const parsed = typeof value === 'number' ? value : Number(text);
      if (text === '' || !Number.isInteger(parsed)) throw wrong('a whole number');
      return parsed;
    }
    case 'boolean':
      if (value === true || text === 'true') return true;
      if (value === false || text === 'false') return false;
      throw wrong('true or false');
    default:
      if (typeof value !== 'string' && typeof value !== 'number') throw wrong('text');
      if (text === '') throw new SkillInputError(name, 'is empty.', describeInputs(document));
      return String(value);
  }
}

function coerce(name: string, variable: Pick<VariableSchema, 'type' | 'items' | 'enum'>, value: unknown, document: SkillDocument): InputValue {
  if (variable.type === 'array') {
    const items = listOf(value);
    if (items === undefined) throw new SkillInputError(name, `expected a list, got ${JSON.stringify(value)}.`, `Give it as ${name}=a,b or ${name}='["a","b"]'. ${describeInputs(document)}`);
    if (items.length === 0) throw new SkillInputError(name, 'is an empty list.', describeInputs(document));
    return items.map((item) => coerceScalar(name, variable.items?.type ?? 'string', item, document) as string | number);
  }
  const scalar = coerceScalar(name, variable.type, value, document);
  if (variable.enum !== undefined && !variable.enum.some((allowed) => allowed === scalar)) {
    throw new SkillInputError(name, `${JSON.stringify(scalar)} is not one of ${variable.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}.`, describeInputs(document));
  }
  return scalar;
}

/** The type a step value had when recorded, so an override from the command line reads the same way. */
function recordedShape(document: SkillDocument, name: string): Pick<VariableSchema, 'type' | 'items'> {
  const match = /^steps\[(\d+)\]\.(.+)$/.exec(name)!;
  const recorded = document.recordings[0]!.steps[Number(match[1])]?.input;
  const value = recorded === undefined ? undefined : valueAtPath(recorded, parseJsonPath(match[2]!) as JsonPath);
  if (Array.isArray(value)) return { type: 'array', items: { type: typeof value[0] === 'number' ? 'number' : 'string' } };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

/**
 * Checks raw inputs against the skill's variables schema: every required variable present, each value
 * of its declared type (text from the command line is converted; a list from `a,b` or JSON), enums
 * respected, and no name the skill does not know. Step values (`steps[3].order_id`) may be given too.
 * Errors name the variable and list what the skill takes.
 */
export function validateSkillInputs(document: SkillDocument, raw: Readonly<Record<string, unknown>>): SkillInputs {
  const properties = document.variables_schema.properties;
  const overridable = overridableValueNames(document);
  const variables: Record<string, InputValue> = Object.create(null) as Record<string, InputValue>;
  const overrides: Record<string, InputValue> = Object.create(null) as Record<string, InputValue>;
  for (const [name, value] of Object.entries(raw)) {
    if (Object.hasOwn(properties, name)) {
      variables[name] = coerce(name, properties[name]!, value, document);
    } else if (overridable.has(name)) {
      overrides[name] = coerce(name, recordedShape(document, name), value, document);
    } else {
      throw new SkillInputError(name, `is not an input of skill "${document.name}".`, describeInputs(document));
    }
  }
  for (const name of document.variables_schema.required) {
    if (!Object.hasOwn(variables, name)) throw new SkillInputError(name, 'is required but missing.', `Add --input ${name}=<value>. ${describeInputs(document)}`);
  }
  return { variables, overrides };
}
