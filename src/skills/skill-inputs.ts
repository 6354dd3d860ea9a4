import { ConfigurationError } from '../core/index.js';
import type { SkillDocument } from './skill-document.js';
import { SkillInputError } from './skill-errors.js';

/** A user-supplied value: a variable, or an override for a value that would otherwise be resolved. */
export type InputValue = string | number | boolean;

/** What a replay is given, checked: the variables (typed) and the overrides of dependent values. */
export interface SkillInputs {
  readonly variables: Readonly<Record<string, InputValue>>;
  readonly overrides: Readonly<Record<string, InputValue>>;
}

/** `--input k=v` pairs as a record; the value is everything after the first `=`. */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigurationError('--input', `"${pair}" is not name=value.`, 'Write --input topic=lumen (repeat --input for each variable).');
    inputs[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return inputs;
}

/** `steps[1].url` and the like: the names of a skill's dependent values, which callers may override. */
export function dependentValueNames(document: SkillDocument): string[] {
  return document.steps.flatMap((step, index) =>
    step.arguments.filter(({ binding }) => binding.kind === 'step-result' || binding.kind === 'text').map(({ path }) => dependentValueName(index, path)),
  );
}

export function dependentValueName(step: number, path: string): string {
  return `steps[${step}].${path}`;
}

function describeInputs(document: SkillDocument): string {
  const variables = Object.entries(document.variables_schema.properties).map(
    ([name, variable]) => `${name} (${variable.type}${document.variables_schema.required.includes(name) ? ', required' : ''}, e.g. ${JSON.stringify(variable.examples[0])})`,
  );
  return variables.length === 0 ? 'This skill takes no inputs.' : `Inputs of ${document.name}: ${variables.join('; ')}.`;
}

function coerce(name: string, type: string, value: unknown, document: SkillDocument): InputValue {
  const text = String(value).trim();
  const wrong = (expected: string) =>
    new SkillInputError(name, `expected ${expected}, got ${JSON.stringify(value)}.`, describeInputs(document));
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

/**
 * Checks raw inputs against the skill's variables schema: every required variable present, each value
 * of its declared type (text from the command line is converted), and no name the skill does not know.
 * Errors name the variable and list what the skill takes.
 */
export function validateSkillInputs(document: SkillDocument, raw: Readonly<Record<string, unknown>>): SkillInputs {
  const properties = document.variables_schema.properties;
  const dependents = new Set(dependentValueNames(document));
  const variables: Record<string, InputValue> = {};
  const overrides: Record<string, InputValue> = {};
  for (const [name, value] of Object.entries(raw)) {
    const variable = properties[name];
    if (variable !== undefined) {
      variables[name] = coerce(name, variable.type, value, document);
    } else if (dependents.has(name)) {
      overrides[name] = coerce(name, 'string', value, document);
    } else {
      throw new SkillInputError(name, `is not an input of skill "${document.name}".`, describeInputs(document));
    }
  }
  for (const name of document.variables_schema.required) {
    if (!(name in variables)) throw new SkillInputError(name, 'is required but missing.', `Add --input ${name}=<value>. ${describeInputs(document)}`);
  }
  return { variables, overrides };
}
