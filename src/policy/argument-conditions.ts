import path from 'node:path';
import { compileLinearPattern, type LinearPattern } from '../security/index.js';
import type { PolicyCondition } from './policy-document.js';

/** A condition's verdict on one call: it holds, it does not, or the input does not say (missing field, not text). */
export type ConditionResult = 'holds' | 'fails' | 'unknown';

const compiled = new Map<string, LinearPattern | undefined>();

function patternOf(source: string): LinearPattern | undefined {
  if (!compiled.has(source)) {
    if (compiled.size > 1000) compiled.clear();
    compiled.set(source, compileLinearPattern(source));
  }
  return compiled.get(source);
}

/** The value at a dotted path of `input`, or undefined. Own properties only: `__proto__` and friends lead nowhere. */
function valueAt(input: unknown, argument: string): unknown {
  let current: unknown = input;
  for (const segment of argument.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** The texts a condition tests: the field's text, or every text of a list field; undefined when it holds none. */
function textsAt(input: unknown, argument: string): string[] | undefined {
  const value = valueAt(input, argument);
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}

function hostOf(text: string): string | undefined {
  const candidate = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`;
  try {
    const host = new URL(candidate).hostname.toLowerCase();
    return host === '' ? undefined : host.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

function hostListed(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower.startsWith('*.') ? host.endsWith(lower.slice(1)) : host === lower;
  });
}

function inside(folder: string, candidate: string): boolean {
  const relative = path.relative(path.resolve(folder), candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function decodedPath(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function testOne(condition: PolicyCondition, text: string, workspace: string): ConditionResult {
  if (condition.matches !== undefined) {
    const pattern = patternOf(condition.matches);
    return pattern === undefined ? 'unknown' : pattern.test(text) ? 'holds' : 'fails';
  }
  if (condition.in !== undefined) return condition.in.some((value) => value.toLowerCase() === text.toLowerCase()) ? 'holds' : 'fails';
  if (condition.not_in !== undefined) return condition.not_in.some((value) => value.toLowerCase() === text.toLowerCase()) ? 'fails' : 'holds';
  if (condition.host_not_in !== undefined) {
    const host = hostOf(text);
    return host === undefined ? 'unknown' : hostListed(host, condition.host_not_in) ? 'fails' : 'holds';
  }
  if (condition.outside !== undefined) {
    // Percent-encoding is decoded first: a tool that decodes its path must not see another folder than the policy did.
    const decoded = decodedPath(text);
    if (decoded === undefined || decoded.includes('\0')) return 'unknown';
    return inside(condition.outside, path.resolve(workspace, decoded)) ? 'fails' : 'holds';
  }
  return 'unknown';
}

/**
 * Tests one condition on a call's (validated) input. On a list field it holds when it holds for any
 * element; a field that is missing or holds no text makes it `unknown`, which the evaluation treats
 * as holding for rules that restrict and as failing for rules that allow (ambiguity fails closed).
 */
export function testCondition(condition: PolicyCondition, input: unknown, workspace: string): ConditionResult {
  const texts = textsAt(input, condition.argument);
  if (texts === undefined) return 'unknown';
  const results = texts.map((text) => testOne(condition, text, workspace));
  if (results.includes('holds')) return 'holds';
  return results.includes('unknown') ? 'unknown' : 'fails';
}

/** A condition as a person reads it: `command matches "rm -rf"`. */
export function describeCondition(condition: PolicyCondition): string {
  if (condition.matches !== undefined) return `${condition.argument} matches ${JSON.stringify(condition.matches)}`;
  if (condition.in !== undefined) return `${condition.argument} is one of ${condition.in.join(', ')}`;
  if (condition.not_in !== undefined) return `${condition.argument} is not ${condition.not_in.join(' or ')}`;
  if (condition.host_not_in !== undefined) return `${condition.argument}'s host is not ${condition.host_not_in.join(' or ')}`;
  return `${condition.argument} is outside ${condition.outside ?? '?'}`;
}
