import type { ResultReference } from './dataflow.js';
import { mentionedInTask } from './dataflow.js';
import type { Condition, Selection } from './document/skill-document.js';
import { formatJsonPath, jsonLeaves, valueAtPath, valuesAtPattern, type JsonPath, type JsonPattern } from './json-path.js';
import { splitPattern } from './result-sources.js';
import { isIdLike, isStateField, isUrl } from './value-shapes.js';
import type { VariableRegistry } from './variable-registry.js';

/** How many request-named fields one choice may test: each is an input the caller must give. */
const MAX_NAMED_CONDITIONS = 3;

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss|us)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function snake(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^[^a-z]+/, '').replace(/_+$/, '');
}

/** Where a reference's entry sits: its collection pattern, the entry's concrete path and the field inside it. */
function entryOf(reference: ResultReference): { collection: JsonPattern; entryPath: JsonPath; field: JsonPattern } {
  if (!reference.match.pattern.includes('*')) return { collection: [], entryPath: [], field: reference.match.pattern };
  const { collection, field } = splitPattern(reference.match.pattern);
  return { collection, entryPath: reference.match.path.slice(0, collection.length), field };
}

/** The field paths of an entry's scalar leaves (`name`, `options.color`), with their values. */
function fieldsOf(entry: unknown): { path: JsonPath; field: string; value: unknown }[] {
  if (typeof entry !== 'object' || entry === null) return [];
  return jsonLeaves(entry).map((leaf) => ({ path: leaf.path, field: formatJsonPath(leaf.path), value: leaf.value }));
}

function candidateEntries(steps: readonly number[], collection: JsonPattern, results: readonly unknown[]): unknown[] {
  return steps.flatMap((step) => (collection.length === 0 ? [results[step]] : valuesAtPattern(results[step], collection).map((entry) => entry.value)));
}

function namedText(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 3 && value.length <= 60 && !isIdLike(value) && !isUrl(value) && !/\n/.test(value);
}

/**
 * Builds the selections of a skill from the references recording found. A value at a collection's
 * entry (or at a fixed place of several pooled results) is a choice of entry; the recording's choice is
 * described by conditions on the entry's fields: the states it had (`status`, `available`), fields
 * equal to an input, and fields the request named (`name` "Desk Lamp" becomes the input `item_name`).
 * Arguments that take fields of the same recorded entry share one selection; every list gets its own.
 */
export class SelectionBuilder {
  private readonly selections: Selection[] = [];
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly task: string,
    private readonly variables: VariableRegistry,
  ) {}

  all(): Selection[] {
    return this.selections;
  }

  fieldOf(reference: ResultReference): string {
    return formatJsonPath(entryOf(reference).field);
  }

  one(reference: ResultReference, results: readonly unknown[]): string {
    const { collection, entryPath, field } = entryOf(reference);
    const key = JSON.stringify([reference.siblings, collection, reference.match.step, entryPath]);
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    const entry = collection.length === 0 ? results[reference.match.step] : valueAtPath(results[reference.match.step], entryPath);
    const candidates = candidateEntries(reference.siblings, collection, results);
    const name = this.nameFor(collection, reference);
    const chosenValue = valueAtPath(entry, field as JsonPath);
    const conditions = [...stateConditions([entry]), ...this.inputConditions(name, entry, candidates, formatJsonPath(field))];
    this.selections.push({
      name,
      cardinality: 'one',
      steps: [...reference.siblings],
      collection: formatJsonPath(collection),
      field: formatJsonPath(field),
      scoring: isUrl(chosenValue) ? 'url' : 'none',
      conditions,
      recorded: [chosenValue],
    });
    this.keys.set(key, name);
    return name;
  }

  many(elements: readonly ResultReference[], results: readonly unknown[]): string {
    const first = entryOf(elements[0]!);
    const entries = elements.map((element) => {
      const { entryPath } = entryOf(element);
      return first.collection.length === 0 ? results[element.match.step] : valueAtPath(results[element.match.step], entryPath);
    });
    const candidates = candidateEntries(elements[0]!.siblings, first.collection, results);
    const name = this.nameFor(first.collection, elements[0]!);
    this.selections.push({
      name,
      cardinality: 'many',
      steps: [...elements[0]!.siblings],
      collection: formatJsonPath(first.collection),
      field: formatJsonPath(first.field),
      scoring: 'none',
      conditions: [...stateConditions(entries), ...this.listCondition(name, entries, candidates, formatJsonPath(first.field))],
      recorded: entries.map((entry) => valueAtPath(entry, first.field as JsonPath)),
    });
    return name;
  }

  private nameFor(collection: JsonPattern, reference: ResultReference): string {
    const key = collection.findLast((segment): segment is string => typeof segment === 'string' && segment !== '*');
    const base = key === undefined ? `choice_${reference.match.step}` : singular(snake(key)) || 'choice';
    let name = base;
    for (let suffix = 2; this.selections.some((selection) => selection.name === name); suffix += 1) name = `${base}_${suffix}`;
    return name;
  }

  /**
   * Fields of the chosen entry that tell it apart from the other candidates and are tied to the inputs:
   * equal to an input already known, or named by the request (only fields every candidate has, so the
   * condition means the same thing for any data of this shape).
   */
  private inputConditions(selection: string, entry: unknown, candidates: readonly unknown[], selectedField: string): Condition[] {
    const conditions: Condition[] = [];
    let named = 0;
    for (const { path, field, value } of fieldsOf(entry)) {
      if (field === selectedField || (typeof value !== 'string' && typeof value !== 'number')) continue;
      const values = candidates.map((candidate) => valueAtPath(candidate, path));
      if (values.some((other) => other === undefined) || values.every((other) => other === value)) continue;
      const existing = this.variables.existing(value);
      if (existing !== undefined) {
        conditions.push({ field, operator: 'equals', operand: { input: existing } });
        continue;
      }
      if (named >= MAX_NAMED_CONDITIONS || !namedText(value) || !mentionedInTask(value, this.task)) continue;
      named += 1;
      const input = this.variables.condition(value, conditionVariableBase(selection, field), selection, field);
      conditions.push({ field, operator: 'equals', operand: { input } });
    }
    return conditions;
  }

  /** For a list: the first field every candidate has whose chosen values the request all named, as a list input. */
  private listCondition(selection: string, entries: readonly unknown[], candidates: readonly unknown[], selectedField: string): Condition[] {
    for (const { path, field } of fieldsOf(entries[0])) {
      if (field === selectedField) continue;
      const chosen = entries.map((entry) => valueAtPath(entry, path));
      const all = candidates.map((candidate) => valueAtPath(candidate, path));
      if (all.some((value) => value === undefined) || !chosen.every((value) => namedText(value) && mentionedInTask(value, this.task))) continue;
      if (all.every((value) => chosen.includes(value))) continue;
      const input = this.variables.condition(chosen, `${conditionVariableBase(selection, field)}s`, selection, field);
      return [{ field, operator: 'in', operand: { input } }];
    }
    return [];
  }
}

/** `item_name` for the field `name` of the selection `item`, `color` for `options.color`. */
function conditionVariableBase(selection: string, field: string): string {
  const last = snake(field.split('.').at(-1) ?? field);
  return ['name', 'title', 'id', 'type', 'label', 'value', 'kind'].includes(last) ? `${selection.replace(/_\d+$/, '')}_${last}` : last || 'choice';
}

/** The states every chosen entry shares (`available: true`, `status: "pending"`): a choice never takes an entry in another state. */
function stateConditions(entries: readonly unknown[]): Condition[] {
  const first = entries[0];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return [];
  return Object.entries(first)
    .filter(([key, value]) => isStateField(key, value) && entries.every((entry) => valueAtPath(entry, [key]) === value))
    .map(([key, value]) => ({ field: formatJsonPath([key]), operator: 'equals' as const, operand: { literal: value as string | boolean } }));
}
