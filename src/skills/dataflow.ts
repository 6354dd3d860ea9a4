import { isGenericWord, wordsOf } from './generic-words.js';
import { isForbiddenSegment, jsonLeaves, type JsonPath } from './json-path.js';
import { resultMatches, siblingSteps, splitPattern, type ResultMatch, type ResultSourceStep } from './result-sources.js';
import type { Trace, TraceStep } from './trace.js';
import { isIdLike, isScalar, isUrl } from './value-shapes.js';

/** A run of words a value shares with the task. Offsets are into the value. */
export interface TaskSpan {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A value found in an earlier result, with the steps whose results pool into the same choice. */
export interface ResultReference {
  readonly match: ResultMatch;
  readonly siblings: readonly number[];
}

/**
 * Where one argument value came from:
 * - `task`: from the user's request; `whole` when the entire value appears in the task, otherwise the
 *   `spans` of it that do (the rest is the model's own wording).
 * - `result`: equal to a scalar of an earlier result (`match`), pooled with its `siblings`.
 * - `result-list`: a list whose every element is an entry's field of one collection (the same pattern).
 * - `derived`: a text computed from earlier results (`135.24 - 153.23`): its numbers are result values.
 * - `result-text`: a span of an earlier step's text result, found between `prefix` and `suffix`.
 * - `model-text`: text the model wrote from an earlier result (a summary passed on).
 * - `unbound`: none of these: the model chose it, or had it from the conversation.
 */
export type ValueSource =
  | { readonly kind: 'task'; readonly whole: boolean; readonly spans: readonly TaskSpan[] }
  | ({ readonly kind: 'result' } & ResultReference)
  | { readonly kind: 'result-list'; readonly elements: readonly ResultReference[] }
  | { readonly kind: 'derived'; readonly template: string; readonly parts: readonly (ResultReference & { readonly slot: string; readonly value: number })[] }
  | { readonly kind: 'result-text'; readonly step: number; readonly prefix: string; readonly suffix: string }
  | { readonly kind: 'model-text'; readonly step: number; readonly path: JsonPath }
  | { readonly kind: 'unbound' };

export interface ArgumentFlow {
  readonly path: JsonPath;
  /** A scalar, or a list of scalars (a list argument is one value, so its length can follow the data). */
  readonly value: unknown;
  readonly source: ValueSource;
}

/** The binding map: for every successful step, where each of its argument values came from. */
export interface StepFlow {
  /** Index into `trace.steps`. */
  readonly traceIndex: number;
  readonly tool: string;
  readonly sideEffect: 'read' | 'write';
  readonly arguments: readonly ArgumentFlow[];
}

const contextLength = 24;

/** The arguments of an input: scalars, and lists of scalars as one value each; objects are walked. */
function argumentUnits(input: unknown, prefix: JsonPath = []): { path: JsonPath; value: unknown }[] {
  if (Array.isArray(input)) {
    if (prefix.length > 0 && input.every(isScalar)) return [{ path: prefix, value: input }];
    return input.flatMap((item, index) => argumentUnits(item, [...prefix, index]));
  }
  if (typeof input === 'object' && input !== null) {
    return Object.entries(input)
      .filter(([key]) => !isForbiddenSegment(key))
      .flatMap(([key, item]) => argumentUnits(item, [...prefix, key]));
  }
  return prefix.length === 0 ? [] : [{ path: prefix, value: input }];
}

/**
 * Determines, for every argument of every successful step, where its value came from. Ids come from
 * results before the request (a lookup's exact answer beats any reading of the request, and an id is
 * never request wording); other text comes from the request before results; URLs only ever come from
 * results. `sideEffectOf` says whether a step's tool could write (its echoes are then no source).
 */
export function analyzeDataflow(trace: Trace, sideEffectOf: (tool: string, input: unknown) => 'read' | 'write'): StepFlow[] {
  const successful = trace.steps.filter((step) => step.error === null);
  const sources: ResultSourceStep[] = successful.map((step, position) => ({ position, tool: step.tool, sideEffect: sideEffectOf(step.tool, step.input), input: step.input, result: step.result }));
  return successful.map((step, position) => {
    const earlier = sources.slice(0, position);
    const used = new Set<string>();
    const argumentsOfStep = argumentUnits(step.input ?? {}).map(({ path, value }) => {
      const source = sourceOf(value, trace, earlier, successful.slice(0, position), used);
      if (source.kind === 'result') used.add(referenceKey(source));
      if (source.kind === 'result-list') used.add(referenceKey(source.elements[0]!));
      return { path, value, source };
    });
    return { traceIndex: step.index, tool: step.tool, sideEffect: sources[position]!.sideEffect, arguments: argumentsOfStep };
  });
}

function referenceKey(reference: ResultReference): string {
  return JSON.stringify([reference.siblings, reference.match.pattern]);
}

function reference(match: ResultMatch, earlier: readonly ResultSourceStep[]): ResultReference {
  return { match, siblings: siblingSteps(match, earlier) };
}

/** The best result reference for a value, preferring one no other argument of this step draws from. */
function resultReference(value: unknown, earlier: readonly ResultSourceStep[], used: ReadonlySet<string>): ResultReference | undefined {
  const references = resultMatches(value, earlier).map((match) => reference(match, earlier));
  return references.find((candidate) => !used.has(referenceKey(candidate))) ?? references[0];
}

function sourceOf(value: unknown, trace: Trace, earlier: readonly ResultSourceStep[], earlierSteps: readonly TraceStep[], used: ReadonlySet<string>): ValueSource {
  if (Array.isArray(value)) return listSource(value, earlier, used);
  if (isUrl(value)) {
    const fromResult = resultReference(value, earlier, used);
    return fromResult !== undefined ? { kind: 'result', ...fromResult } : (resultTextSource(value, earlierSteps) ?? { kind: 'unbound' });
  }
  if (typeof value === 'number') {
    if (new RegExp(`(^|\\D)${String(value).replace('.', '\\.')}(\\D|$)`).test(trace.task)) return { kind: 'task', whole: true, spans: [{ start: 0, end: String(value).length, text: String(value) }] };
    const fromResult = Math.abs(value) >= 100 || !Number.isInteger(value) ? resultReference(value, earlier, used) : undefined;
    return fromResult === undefined ? { kind: 'unbound' } : { kind: 'result', ...fromResult };
  }
  if (typeof value !== 'string' || value.trim() === '') return { kind: 'unbound' };
  const whole = wholeValueInTask(value, trace.task);
  const fromResult = resultReference(value, earlier, used);
  if (isIdLike(value)) {
    if (fromResult !== undefined) return { kind: 'result', ...fromResult };
    if (whole) return { kind: 'task', whole: true, spans: [{ start: 0, end: value.length, text: value }] };
    return resultTextSource(value, earlierSteps) ?? { kind: 'unbound' };
  }
  if (whole) return { kind: 'task', whole: true, spans: [{ start: 0, end: value.length, text: value }] };
  if (fromResult !== undefined) return { kind: 'result', ...fromResult };
  // A word the model read out of a larger token of the request ("Mei" from "mei_kovacs_8020").
  if (insideTaskToken(value, trace.task)) return { kind: 'task', whole: true, spans: [{ start: 0, end: value.length, text: value }] };
  const derived = derivedSource(value, earlier, used);
  if (derived !== undefined) return derived;
  const spans = taskSpans(value, trace.task);
  if (spans.some((span) => wordsOf(span.text).some((word) => !isGenericWord(word.text)))) return { kind: 'task', whole: false, spans };
  return resultTextSource(value, earlierSteps) ?? modelTextSource(value, trace, earlierSteps) ?? { kind: 'unbound' };
}

/**
 * A list is bound as a list only when every element is a field of entries of one collection (the same
 * pattern in the same pooled steps); otherwise it is one value from elsewhere (an input, as a whole).
 */
function listSource(values: readonly unknown[], earlier: readonly ResultSourceStep[], used: ReadonlySet<string>): ValueSource {
  if (values.length === 0) return { kind: 'unbound' };
  const first = resultMatches(values[0], earlier).map((match) => reference(match, earlier)).filter((candidate) => splitPattern(candidate.match.pattern).collection.length > 0);
  const ordered = [...first.filter((candidate) => !used.has(referenceKey(candidate))), ...first.filter((candidate) => used.has(referenceKey(candidate)))];
  for (const candidate of ordered) {
    const key = referenceKey(candidate);
    const elements: ResultReference[] = [candidate];
    for (const value of values.slice(1)) {
      const match = resultMatches(value, earlier)
        .map((other) => reference(other, earlier))
        .find((other) => referenceKey(other) === key);
      if (match === undefined) break;
      elements.push(match);
    }
    if (elements.length === values.length) return { kind: 'result-list', elements };
  }
  return { kind: 'unbound' };
}

/** Text made of numbers and arithmetic (`135.24 - 153.23`) whose numbers are earlier result values. */
function derivedSource(value: string, earlier: readonly ResultSourceStep[], used: ReadonlySet<string>): ValueSource | undefined {
  if (!/^[\d\s+\-*/().]+$/.test(value) || !/\d/.test(value)) return undefined;
  const parts: (ResultReference & { slot: string; value: number })[] = [];
  const template = value.replace(/\d+(?:\.\d+)?/g, (token) => {
    const number = Number(token);
    if (!token.includes('.') && Math.abs(number) < 100) return token;
    const found = resultReference(number, earlier, used);
    if (found === undefined) return token;
    const slot = `value_${parts.length + 1}`;
    parts.push({ ...found, slot, value: number });
    return `{{${slot}}}`;
  });
  return parts.length === 0 ? undefined : { kind: 'derived', template, parts };
}

function wholeValueInTask(value: string, task: string): boolean {
  const needle = value.trim().toLowerCase();
  if (needle === '') return false;
  const haystack = task.toLowerCase();
  let index = haystack.indexOf(needle);
  while (index >= 0) {
    const before = haystack[index - 1];
    const after = haystack[index + needle.length];
    if ((before === undefined || !/[\p{L}\p{N}_]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}_]/u.test(after))) return true;
    index = haystack.indexOf(needle, index + 1);
  }
  return false;
}

/** A single word (letters only, not generic) found inside one of the request's tokens. */
function insideTaskToken(value: string, task: string): boolean {
  return /^\p{L}{2,}$/u.test(value) && !isGenericWord(value) && task.toLowerCase().includes(value.toLowerCase());
}

/** Whether `value` appears in `task` as a whole word or phrase (case aside). */
export function mentionedInTask(value: string, task: string): boolean {
  return wholeValueInTask(value, task);
}

/** Maximal runs of consecutive words the value shares, in order, with the task. */
export function taskSpans(value: string, task: string): TaskSpan[] {
  const valueWords = wordsOf(value);
  const taskWords = wordsOf(task).map((word) => word.lower);
  const spans: TaskSpan[] = [];
  let index = 0;
  while (index < valueWords.length) {
    let best = 0;
    for (let start = 0; start < taskWords.length; start += 1) {
      let length = 0;
      while (index + length < valueWords.length && start + length < taskWords.length && valueWords[index + length]!.lower === taskWords[start + length]) length += 1;
      best = Math.max(best, length);
    }
    if (best === 0) {
      index += 1;
      continue;
    }
    const first = valueWords[index]!;
    const last = valueWords[index + best - 1]!;
    spans.push({ start: first.start, end: last.end, text: value.slice(first.start, last.end) });
    index += best;
  }
  return spans;
}

function resultTextSource(value: string, earlier: readonly TraceStep[]): ValueSource | undefined {
  if (value.length < 3) return undefined;
  for (let position = earlier.length - 1; position >= 0; position -= 1) {
    const text = earlier[position]!.result;
    if (typeof text !== 'string' || text === value) continue;
    const at = text.indexOf(value);
    if (at < 0) continue;
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = text.indexOf('\n', at + value.length);
    const prefix = text.slice(Math.max(lineStart, at - contextLength), at);
    const suffix = text.slice(at + value.length, Math.min(lineEnd < 0 ? text.length : lineEnd, at + value.length + contextLength));
    return { kind: 'result-text', step: position, prefix, suffix };
  }
  return undefined;
}

function overlap(text: string, source: string): number {
  const words = new Set(wordsOf(text).map((word) => word.lower).filter((word) => !isGenericWord(word)));
  if (words.size === 0) return 0;
  const sourceWords = new Set(wordsOf(source).map((word) => word.lower));
  return [...words].filter((word) => sourceWords.has(word)).length / words.size;
}

function modelTextSource(value: string, trace: Trace, earlier: readonly TraceStep[]): ValueSource | undefined {
  if (wordsOf(value).length < 6) return undefined;
  const written = trace.assistantTexts.some((text) => text.includes(value) || value.includes(text.trim()));
  let best: { step: number; path: JsonPath; score: number } | undefined;
  earlier.forEach((step, position) => {
    const leaves = typeof step.result === 'string' ? [{ path: [] as JsonPath, value: step.result }] : jsonLeaves(step.result);
    for (const leaf of leaves) {
      if (typeof leaf.value !== 'string') continue;
      const score = overlap(value, leaf.value);
      if (best === undefined || score > best.score) best = { step: position, path: leaf.path, score };
    }
  });
  if (best === undefined || (!written && best.score < 0.3)) return undefined;
  return { kind: 'model-text', step: best.step, path: best.path };
}
