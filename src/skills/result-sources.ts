import { isForbiddenSegment, jsonLeaves, valueAtPath, valuesAtPattern, type JsonPath, type JsonPattern } from './json-path.js';
import { isIdLike } from './value-shapes.js';

/** One earlier result a recorded step can draw from: its position among the kept steps, tool, input and result. */
export interface ResultSourceStep {
  readonly position: number;
  readonly tool: string;
  readonly sideEffect: 'read' | 'write';
  readonly input: unknown;
  readonly result: unknown;
}

/**
 * Where a recorded value sits in an earlier result: the concrete `path`, and the `pattern` it
 * generalises to, in which every collection on the way (an array, or an object keyed by ids) is `*`.
 */
export interface ResultMatch {
  readonly step: number;
  readonly path: JsonPath;
  readonly pattern: JsonPattern;
}

/**
 * An object keyed by ids (`{"9612497925": {...}, "8124970213": {...}}`, `{"paypal_7644869": {...}}`):
 * a collection of records, not a record with named fields, so a choice among it is a choice of entry.
 */
export function isIdKeyedObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([key, entry]) => isIdLike(key) && typeof entry === 'object' && entry !== null);
}

/** The pattern of a concrete path: each array index, and each key of an id-keyed object, becomes `*`. */
export function generalizePath(result: unknown, path: JsonPath): JsonPattern {
  return path.map((segment, index) => {
    if (typeof segment === 'number') return '*';
    return isIdKeyedObject(valueAtPath(result, path.slice(0, index))) ? '*' : segment;
  });
}

export function wildcardCount(pattern: JsonPattern): number {
  return pattern.filter((segment) => segment === '*').length;
}

/** The collection part of a pattern (through its last `*`) and the field inside each entry (the rest). */
export function splitPattern(pattern: JsonPattern): { collection: JsonPattern; field: JsonPattern } {
  const last = pattern.lastIndexOf('*');
  return { collection: pattern.slice(0, last + 1), field: pattern.slice(last + 1) };
}

function inputValues(input: unknown): Set<unknown> {
  return new Set(jsonLeaves(input).map((leaf) => leaf.value));
}

/**
 * Every place an earlier result holds `value` exactly, best first: fixed places before collections,
 * fewer collections before more, the earliest step first (where the model first saw it), then the
 * shortest path. A write's result that only echoes the write's own input is no source: the value came
 * from wherever the write's argument came from, and taking it from the echo would merge two roles.
 */
export function resultMatches(value: unknown, steps: readonly ResultSourceStep[]): ResultMatch[] {
  const matches: (ResultMatch & { order: number })[] = [];
  for (const step of steps) {
    const echoes = step.sideEffect === 'write' ? inputValues(step.input) : new Set<unknown>();
    jsonLeaves(step.result).forEach((leaf, order) => {
      if (leaf.value !== value || echoes.has(leaf.value) || leaf.path.some(isForbiddenSegment)) return;
      matches.push({ step: step.position, path: leaf.path, pattern: generalizePath(step.result, leaf.path), order });
    });
  }
  return matches
    .sort((left, right) => wildcardCount(left.pattern) - wildcardCount(right.pattern) || left.step - right.step || left.path.length - right.path.length || left.order - right.order)
    .map(({ step, path, pattern }) => ({ step, path, pattern }));
}

/**
 * The steps whose results pool into the same choice as `match`: every earlier step of the same tool
 * whose result has the matched place (for a fixed place) or the matched collection. One step alone
 * with a fixed place is a plain result; several, or a collection, are a choice among entries.
 */
export function siblingSteps(match: ResultMatch, steps: readonly ResultSourceStep[]): number[] {
  const tool = steps.find((step) => step.position === match.step)?.tool;
  const { collection } = splitPattern(match.pattern);
  return steps
    .filter((step) => step.tool === tool)
    .filter((step) => step.position === match.step || (collection.length === 0 ? valueAtPath(step.result, match.pattern as JsonPath) !== undefined : valuesAtPattern(step.result, collection).length > 0))
    .map((step) => step.position);
}
