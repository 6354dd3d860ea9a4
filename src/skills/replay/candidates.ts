import { jsonLeaves, parseJsonPath, valueAtPath, valuesAtWildcardPath } from '../json-path.js';
import type { ArgumentBinding } from '../skill-document.js';

type StepResultBinding = Extract<ArgumentBinding, { kind: 'step-result' }>;

/** One value a dependent argument could take, read from a fresh result. */
export interface Candidate {
  readonly value: unknown;
  /** The element it came from (for key matching), when it came from a collection. */
  readonly element: unknown;
  /** The element's other text (title, snippet, name), shown to a rescue model. */
  readonly context: string;
}

function contextOf(element: unknown, value: unknown): string {
  if (typeof element !== 'object' || element === null) return '';
  return jsonLeaves(element)
    .filter((leaf) => typeof leaf.value === 'string' && leaf.value !== value)
    .map((leaf) => String(leaf.value).replace(/\s+/g, ' ').slice(0, 160))
    .join(' — ');
}

/**
 * The candidates a binding offers in a fresh result: every value of the collection (`results[*].url`),
 * the single value at a scalar path, or the span of a text result between the recorded context.
 */
export function candidatesFor(binding: StepResultBinding, result: unknown): Candidate[] {
  if (binding.prefix !== null || binding.suffix !== null) {
    if (typeof result !== 'string') return [];
    const prefix = binding.prefix ?? '';
    const start = result.indexOf(prefix);
    if (start < 0) return [];
    const from = start + prefix.length;
    const suffixAt = binding.suffix === null || binding.suffix === '' ? -1 : result.indexOf(binding.suffix, from);
    const end = suffixAt >= 0 ? suffixAt : (/\s/.exec(result.slice(from))?.index ?? result.length - from) + from;
    const value = result.slice(from, end);
    return value === '' ? [] : [{ value, element: undefined, context: '' }];
  }
  if (binding.collection !== null) {
    const collection = parseJsonPath(binding.collection);
    const starAt = collection.lastIndexOf('*');
    return valuesAtWildcardPath(result, collection)
      .filter((entry) => entry.value !== null && typeof entry.value !== 'object')
      .map((entry) => {
        const element = valueAtPath(result, entry.path.slice(0, starAt + 1));
        return { value: entry.value, element, context: contextOf(element, entry.value) };
      });
  }
  const value = valueAtPath(result, parseJsonPath(binding.path) as (string | number)[]);
  return value === undefined || value === null || typeof value === 'object' ? [] : [{ value, element: undefined, context: '' }];
}
