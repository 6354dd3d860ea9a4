import { jsonLeaves } from './json-path.js';
import type { OutputContract } from './document/skill-document.js';

type ResultType = OutputContract['steps'][number]['type'];

function typeOf(value: unknown): ResultType {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

function isEmpty(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  return !jsonLeaves(value).some((leaf) => (typeof leaf.value === 'string' ? leaf.value.trim() !== '' : leaf.value !== null));
}

/** The contract a recording sets: each step's result type and top-level keys, and a non-empty last result. */
export function outputContractFrom(results: readonly unknown[]): OutputContract {
  return {
    steps: results.map((result) => ({
      type: typeOf(result),
      keys: typeof result === 'object' && result !== null && !Array.isArray(result) ? Object.keys(result).sort() : [],
    })),
    final_non_empty: true,
  };
}

/** What one fresh result breaks of its step's contract (type and recorded keys); empty when it holds. */
export function stepContractViolations(contract: OutputContract, index: number, result: unknown): string[] {
  const expected = contract.steps[index];
  if (expected === undefined) return [];
  const type = typeOf(result);
  if (type !== expected.type) return [`step ${index} returned ${type} where the recording returned ${expected.type}`];
  const missing = expected.keys.filter((key) => !Object.hasOwn(result as object, key));
  return missing.length > 0 ? [`step ${index} result lacks ${missing.map((key) => `"${key}"`).join(', ')}`] : [];
}

/** What a replay's results break of the contract: one line per violation, empty when it holds. */
export function outputContractViolations(contract: OutputContract, results: readonly unknown[]): string[] {
  const violations: string[] = [];
  contract.steps.forEach((expected, index) => {
    if (index >= results.length) return;
    const actual = results[index];
    const type = typeOf(actual);
    if (type !== expected.type) {
      violations.push(`step ${index} returned ${type} where the recording returned ${expected.type}`);
      return;
    }
    const missing = expected.keys.filter((key) => !(key in (actual as Record<string, unknown>)));
    if (missing.length > 0) violations.push(`step ${index} result lacks ${missing.map((key) => `"${key}"`).join(', ')}`);
  });
  if (contract.final_non_empty && results.length === contract.steps.length && isEmpty(results.at(-1))) {
    violations.push(`the last step (${results.length - 1}) returned nothing`);
  }
  return violations;
}
