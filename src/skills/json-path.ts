/** A location inside a JSON value: object keys and array indexes, outermost first. */
export type JsonPath = readonly (string | number)[];

/** One scalar (string, number, boolean, null) inside a JSON value, with where it sits. */
export interface JsonLeaf {
  readonly path: JsonPath;
  readonly value: string | number | boolean | null;
}

/** Every scalar of `value`, depth first, in key order. */
export function jsonLeaves(value: unknown, prefix: JsonPath = []): JsonLeaf[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => jsonLeaves(item, [...prefix, index]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => jsonLeaves(item, [...prefix, key]));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return [{ path: prefix, value }];
  return [];
}

/** `results[2].url` for `['results', 2, 'url']`; `[*]` stands for every index. */
export function formatJsonPath(path: readonly (string | number | '*')[]): string {
  return path
    .map((segment, index) => {
      if (typeof segment === 'number' || segment === '*') return `[${segment}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join('');
}

/** The inverse of `formatJsonPath`. */
export function parseJsonPath(text: string): (string | number | '*')[] {
  const segments: (string | number | '*')[] = [];
  for (const match of text.matchAll(/([^.[\]]+)|\[(\d+|\*)\]/g)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] === '*') segments.push('*');
    else segments.push(Number(match[2]));
  }
  return segments;
}

/** The value at `path`, or undefined when the path does not exist. */
export function valueAtPath(value: unknown, path: readonly (string | number)[]): unknown {
  let current: unknown = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Every value matching a path with `*` wildcards, each with its concrete path. */
export function valuesAtWildcardPath(value: unknown, path: readonly (string | number | '*')[], prefix: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (path.length === 0) return value === undefined ? [] : [{ path: prefix, value }];
  const [head, ...rest] = path;
  if (head === '*') {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, index) => valuesAtWildcardPath(item, rest, [...prefix, index]));
  }
  if (typeof value !== 'object' || value === null) return [];
  return valuesAtWildcardPath((value as Record<string | number, unknown>)[head!], rest, [...prefix, head!]);
}

/** A copy of `target` with `value` placed at `path`, creating objects and arrays on the way. */
export function setAtPath(target: Record<string, unknown>, path: JsonPath, value: unknown): void {
  let current: Record<string | number, unknown> = target;
  path.forEach((segment, index) => {
    if (index === path.length - 1) {
      current[segment] = value;
      return;
    }
    const next = current[segment];
    if (typeof next !== 'object' || next === null) current[segment] = typeof path[index + 1] === 'number' ? [] : {};
    current = current[segment] as Record<string | number, unknown>;
  });
}
