/** A location inside a JSON value: object keys and array indexes, outermost first. `*` is every entry. */
export type JsonPath = readonly (string | number)[];
export type JsonPattern = readonly (string | number | '*')[];

/** One scalar (string, number, boolean, null) inside a JSON value, with where it sits. */
export interface JsonLeaf {
  readonly path: JsonPath;
  readonly value: string | number | boolean | null;
}

/**
 * Keys that reach an object's prototype instead of its own data. A path from a document or a result
 * that names one is refused, so no skill, binding or tool result can set or read through them.
 */
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isForbiddenSegment(segment: string | number): boolean {
  return typeof segment === 'string' && FORBIDDEN_SEGMENTS.has(segment);
}

/** Every scalar of `value`, depth first, in key order. */
export function jsonLeaves(value: unknown, prefix: JsonPath = []): JsonLeaf[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => jsonLeaves(item, [...prefix, index]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => jsonLeaves(item, [...prefix, key]));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return [{ path: prefix, value }];
  return [];
}

/** `results[2].url` for `['results', 2, 'url']`; `[*]` stands for every entry. Keys that are not plain words are quoted: `variants["a b"]`. */
export function formatJsonPath(path: JsonPattern): string {
  return path
    .map((segment, index) => {
      if (typeof segment === 'number' || segment === '*') return `[${segment}]`;
      if (!/^[A-Za-z0-9_$@#-]+$/.test(segment)) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join('');
}

/** The inverse of `formatJsonPath`. Throws on text it cannot read or a segment that reaches a prototype. */
export function parseJsonPath(text: string): (string | number | '*')[] {
  const segments: (string | number | '*')[] = [];
  let rest = text;
  while (rest !== '') {
    const match = /^(?:\.?([A-Za-z0-9_$@#-]+)|\[(\d+|\*)\]|\[("(?:[^"\\]|\\.)*")\])/.exec(rest);
    if (match === null) throw new Error(`"${text}" is not a JSON path (at "${rest}")`);
    const segment = match[1] ?? (match[2] === '*' ? '*' : match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string));
    if (isForbiddenSegment(segment)) throw new Error(`"${text}" names "${String(segment)}", which reaches an object's prototype`);
    segments.push(segment);
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/** Whether `text` reads as a JSON path with no prototype-reaching segment. */
export function isSafeJsonPath(text: string): boolean {
  try {
    parseJsonPath(text);
    return true;
  } catch {
    return false;
  }
}

/** The value at `path`, or undefined when the path does not exist. Only own properties are followed. */
export function valueAtPath(value: unknown, path: JsonPath): unknown {
  let current: unknown = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** The entries of a collection: an array's items, or an object's values (an object keyed by ids). */
export function collectionEntries(value: unknown): { key: string | number; value: unknown }[] {
  if (Array.isArray(value)) return value.map((item, index) => ({ key: index, value: item }));
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([key, item]) => ({ key, value: item }));
  return [];
}

/** Every value matching a path with `*` wildcards (over arrays and id-keyed objects), each with its concrete path. */
export function valuesAtPattern(value: unknown, pattern: JsonPattern, prefix: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (pattern.length === 0) return value === undefined ? [] : [{ path: prefix, value }];
  const [head, ...rest] = pattern;
  if (head === '*') return collectionEntries(value).flatMap((entry) => valuesAtPattern(entry.value, rest, [...prefix, entry.key]));
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, head!)) return [];
  return valuesAtPattern((value as Record<string | number, unknown>)[head!], rest, [...prefix, head!]);
}

/**
 * Places `value` at `path` inside `target`, creating objects and arrays on the way. Objects it creates
 * have no prototype, and a prototype-reaching segment is refused, so data-chosen keys never touch
 * `Object.prototype`.
 */
export function setAtPath(target: Record<string, unknown>, path: JsonPath, value: unknown): void {
  let current: Record<string | number, unknown> = target;
  path.forEach((segment, index) => {
    if (isForbiddenSegment(segment)) throw new Error(`refusing to set "${String(segment)}": it reaches an object's prototype`);
    if (index === path.length - 1) {
      current[segment] = value;
      return;
    }
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (typeof next !== 'object' || next === null) current[segment] = typeof path[index + 1] === 'number' ? [] : Object.create(null);
    current = current[segment] as Record<string | number, unknown>;
  });
}
