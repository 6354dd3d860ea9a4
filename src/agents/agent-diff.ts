import { canonicalJson } from '../core/canonical-json.js';
import type { AgentDefinition } from './agent-definition.js';
import { formatAgentPath, type AgentPathSegment } from './agent-path.js';

/**
 * One changed field between two definitions. `before` is absent for a field that was added, `after`
 * for one that was removed. A list of named entries (parameters, outputs) is compared by name:
 * `parameters[topic].default`; when only their order changed, the list's path carries the names.
 */
export interface AgentDefinitionChange {
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** The lists whose entries are matched by `name` instead of compared whole. */
const NAMED_LISTS = new Set(['parameters', 'outputs']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The keys of both objects in an order both agree with: `after`'s, with each key only `before` has
 * placed just before the first later key of `before` that `after` still has.
 */
function mergedKeys(before: readonly string[], after: readonly string[]): string[] {
  const kept = new Set(after);
  const merged: string[] = [];
  let next = 0;
  for (const key of after) {
    const position = before.indexOf(key);
    if (position >= next) {
      merged.push(...before.slice(next, position).filter((earlier) => !kept.has(earlier)));
      next = position + 1;
    }
    merged.push(key);
  }
  merged.push(...before.slice(next).filter((earlier) => !kept.has(earlier)));
  return merged;
}

function change(path: readonly AgentPathSegment[], before: unknown, after: unknown): AgentDefinitionChange {
  return { path: formatAgentPath(path), ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) };
}

function diffNamedList(path: AgentPathSegment[], before: readonly { name: string }[], after: readonly { name: string }[], changes: AgentDefinitionChange[]): void {
  const earlier = new Map(before.map((entry) => [entry.name, entry]));
  const later = new Map(after.map((entry) => [entry.name, entry]));
  for (const entry of before) {
    const next = later.get(entry.name);
    if (next === undefined) changes.push(change([...path, { item: entry.name }], entry, undefined));
    else diffValues([...path, { item: entry.name }], entry, next, changes);
  }
  for (const entry of after) if (!earlier.has(entry.name)) changes.push(change([...path, { item: entry.name }], undefined, entry));
  const keptBefore = before.map((entry) => entry.name).filter((name) => later.has(name));
  const keptAfter = after.map((entry) => entry.name).filter((name) => earlier.has(name));
  if (keptBefore.join('\n') !== keptAfter.join('\n')) changes.push(change(path, keptBefore, keptAfter));
}

function diffValues(path: AgentPathSegment[], before: unknown, after: unknown, changes: AgentDefinitionChange[]): void {
  if (isRecord(before) && isRecord(after)) {
    const keys = mergedKeys(Object.keys(before), Object.keys(after));
    for (const key of keys) diffValues([...path, key], before[key], after[key], changes);
    return;
  }
  const field = path.length === 1 ? path[0] : undefined;
  if (typeof field === 'string' && NAMED_LISTS.has(field) && Array.isArray(before) && Array.isArray(after)) {
    diffNamedList(path, before as { name: string }[], after as { name: string }[], changes);
    return;
  }
  if (before === undefined && after === undefined) return;
  if (before === undefined || after === undefined || canonicalJson(before) !== canonicalJson(after)) changes.push(change(path, before, after));
}

/**
 * The fields that differ from `before` to `after`, in the order of the definition: what a version
 * records as its changed fields and what `forge agent diff` shows. Objects are compared field by
 * field down to their leaves (`model.temperature`, `tools.shell`, `outputs[report].schema.required`),
 * other lists whole (`tags`). Equal definitions give no changes.
 */
export function diffAgentDefinitions(before: AgentDefinition, after: AgentDefinition): AgentDefinitionChange[] {
  const changes: AgentDefinitionChange[] = [];
  diffValues([], before, after, changes);
  return changes;
}
