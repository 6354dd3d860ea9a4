import type { VariableOrigin, VariableSchema, VariablesSchema } from './document/skill-document.js';
import { FREE_TEXT_KEYS } from './free-text-keys.js';


interface Variable {
  readonly name: string;
  readonly value: unknown;
  readonly description: string;
  readonly origin: VariableOrigin;
  readonly enum: readonly (string | number)[] | undefined;
  /** Shared variables stand for one value the request gave (reused by every read that uses it); role variables for one argument. */
  readonly sharing: 'shared' | 'role';
}

function sameValue(left: unknown, right: unknown): boolean {
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  return JSON.stringify(left) === JSON.stringify(right);
}

function baseName(key: string | undefined, value: unknown): string {
  const cleaned = key?.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '').replace(/_+$/, '');
  if (cleaned === undefined || cleaned === '' || FREE_TEXT_KEYS.has(cleaned)) return typeof value === 'string' ? 'topic' : 'value';
  return cleaned === 'constructor' || cleaned === 'prototype' ? `${cleaned}_value` : cleaned;
}

function schemaFor(variable: Variable): VariableSchema {
  const { value } = variable;
  const type: VariableSchema['type'] = Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'boolean' ? 'boolean' : 'string';
  const first = Array.isArray(value) ? value[0] : undefined;
  const items = Array.isArray(value) ? { type: typeof first === 'number' ? (value.every(Number.isInteger) ? ('integer' as const) : ('number' as const)) : ('string' as const) } : undefined;
  return {
    type,
    description: variable.description,
    ...(items === undefined ? {} : { items }),
    ...(variable.enum === undefined ? {} : { enum: [...variable.enum] }),
    examples: [value],
  };
}

/**
 * The inputs a skill takes, as recording finds them: values the request gave (one variable per value,
 * shared by the reads that use it), values a write sent that nothing explains (one variable per role),
 * and request-named fields a choice tests. Names come from what the value is (`order_id`, `zip`,
 * `item_names`), made unique with `_2`, `_3`.
 */
export class VariableRegistry {
  private readonly variables: Variable[] = [];

  private create(value: unknown, base: string, description: string, origin: VariableOrigin, enumValues: readonly (string | number)[] | undefined, sharing: Variable['sharing']): string {
    let name = base;
    for (let suffix = 2; this.variables.some((variable) => variable.name === name); suffix += 1) name = `${base}_${suffix}`;
    this.variables.push({ name, value, description, origin, enum: enumValues, sharing });
    return name;
  }

  /** The variable that already stands for this value from the request, if any. */
  existing(value: unknown): string | undefined {
    return this.variables.find((variable) => variable.sharing === 'shared' && variable.origin.kind !== 'condition' && sameValue(variable.value, value))?.name;
  }

  /** A variable for a value read steps share (the request's `topic`, an id the caller gives once). */
  shared(value: unknown, key: string | undefined, origin: Extract<VariableOrigin, { kind: 'argument' }>, enumValues?: readonly (string | number)[]): string {
    return this.existing(value) ?? this.create(value, baseName(key, value), describe(value, key, origin), origin, enumValues, 'shared');
  }

  /** A variable for exactly one argument of a write: equal values in other roles never share it. */
  role(value: unknown, key: string | undefined, origin: Extract<VariableOrigin, { kind: 'argument' }>, enumValues?: readonly (string | number)[]): string {
    return this.create(value, baseName(key, value), describe(value, key, origin), origin, enumValues, 'role');
  }

  /** A variable a selection's condition compares a field with: the value the request named for it. */
  condition(value: unknown, base: string, selection: string, field: string): string {
    const existing = this.variables.find((variable) => variable.origin.kind === 'condition' && variable.origin.selection === selection && variable.origin.field === field);
    if (existing !== undefined) return existing.name;
    const description = `Which ${selection.replace(/_\d+$/, '').replace(/_/g, ' ')} to choose: its ${field} (recorded: ${JSON.stringify(value)}).`;
    return this.create(value, base, description, { kind: 'condition', selection, field }, undefined, 'shared');
  }

  schema(): VariablesSchema {
    return {
      type: 'object',
      properties: Object.fromEntries(this.variables.map((variable) => [variable.name, schemaFor(variable)])),
      required: this.variables.map((variable) => variable.name),
      additionalProperties: false,
    };
  }

  origins(): Record<string, VariableOrigin> {
    return Object.fromEntries(this.variables.map((variable) => [variable.name, variable.origin]));
  }

  recordedValues(): Record<string, unknown> {
    return Object.fromEntries(this.variables.map((variable) => [variable.name, variable.value]));
  }

  /** The task with each value the request gave replaced by its `{{variable}}` (the first variable of a value wins). */
  taskTemplate(task: string): string {
    let template = task;
    const done = new Set<string>();
    for (const variable of this.variables) {
      const fromRequest = variable.origin.kind === 'condition' || variable.origin.from === 'request';
      if (!fromRequest || typeof variable.value !== 'string' && typeof variable.value !== 'number') continue;
      const text = String(variable.value);
      if (done.has(text.toLowerCase())) continue;
      done.add(text.toLowerCase());
      const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      template = template.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'giu'), `{{${variable.name}}}`);
    }
    return template;
  }
}

function describe(value: unknown, key: string | undefined, origin: Extract<VariableOrigin, { kind: 'argument' }>): string {
  if (origin.from === 'request') return key === undefined || FREE_TEXT_KEYS.has(key.toLowerCase()) ? `What the task is about (recorded: ${JSON.stringify(value)}).` : `The ${key} the request gives (recorded: ${JSON.stringify(value)}).`;
  return `The ${key ?? 'value'} step ${origin.step} sends (recorded: ${JSON.stringify(value)}); the request did not say it, so every replay must be given it.`;
}
