import { jsonLeaves, type JsonPath } from './json-path.js';
import { isGenericWord, wordsOf } from './generic-words.js';
import type { Trace, TraceStep } from './trace.js';

/** A run of words a value shares with the task. Offsets are into the value. */
export interface TaskSpan {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Where one argument value came from:
 * - `task`: from the user's request; `whole` when the entire value appears in the task, otherwise the
 *   `spans` of it that do (the rest is the model's own wording).
 * - `result`: equal to a scalar of an earlier step's result, at `path`.
 * - `result-text`: a span of an earlier step's text result, found between `prefix` and `suffix`.
 * - `model-text`: text the model wrote from an earlier result (a summary passed on): `step`/`path` is
 *   the result text it drew on most.
 * - `constant`: none of these; the model chose it.
 */
export type ValueSource =
  | { readonly kind: 'task'; readonly whole: boolean; readonly spans: readonly TaskSpan[] }
  | { readonly kind: 'result'; readonly step: number; readonly path: JsonPath }
  | { readonly kind: 'result-text'; readonly step: number; readonly prefix: string; readonly suffix: string }
  | { readonly kind: 'model-text'; readonly step: number; readonly path: JsonPath }
  | { readonly kind: 'constant' };

export interface ArgumentFlow {
  readonly path: JsonPath;
  readonly value: unknown;
  readonly source: ValueSource;
}

/** The binding map: for every successful step, where each of its argument values came from. */
export interface StepFlow {
  /** Index into `trace.steps`. */
  readonly traceIndex: number;
  readonly tool: string;
  readonly arguments: readonly ArgumentFlow[];
}

export function isUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim());
}

const contextLength = 24;

/**
 * Determines, for every argument of every successful step, where its value came from. Order of
 * evidence: a value equal to an earlier argument shares that argument's source (so a tool echoing its
 * input is not mistaken for a source); then the whole value in the task; then an exact scalar of an
 * earlier result (URLs only ever come from results); then task words inside the value; then a span of
 * an earlier text result; then model text; otherwise a constant.
 */
export function analyzeDataflow(trace: Trace): StepFlow[] {
  const flows: StepFlow[] = [];
  const successful = trace.steps.filter((step) => step.error === null);
  successful.forEach((step, position) => {
    const earlier = successful.slice(0, position);
    const earlierArguments = flows.flatMap((flow) => flow.arguments);
    const argumentsOfStep = jsonLeaves(step.input ?? {}).map(({ path, value }) => ({
      path,
      value,
      source: sourceOf(value, trace, earlier, earlierArguments),
    }));
    flows.push({ traceIndex: step.index, tool: step.tool, arguments: argumentsOfStep });
  });
  return flows;
}

function sourceOf(value: unknown, trace: Trace, earlier: readonly TraceStep[], earlierArguments: readonly ArgumentFlow[]): ValueSource {
  const echoed = earlierArguments.find((argument) => argument.value === value && (typeof value === 'string' ? value.length >= 3 : false));
  if (echoed !== undefined) return echoed.source;
  if (isUrl(value)) return resultSource(value, earlier) ?? resultTextSource(value, earlier) ?? { kind: 'constant' };
  if (typeof value === 'number') {
    if (new RegExp(`(^|\\D)${String(value).replace('.', '\\.')}(\\D|$)`).test(trace.task)) return { kind: 'task', whole: true, spans: [{ start: 0, end: String(value).length, text: String(value) }] };
    return (Math.abs(value) >= 100 || !Number.isInteger(value) ? resultSource(value, earlier) : undefined) ?? { kind: 'constant' };
  }
  if (typeof value !== 'string' || value.trim() === '') return { kind: 'constant' };
  if (wholeValueInTask(value, trace.task)) return { kind: 'task', whole: true, spans: [{ start: 0, end: value.length, text: value }] };
  const fromResult = resultSource(value, earlier);
  if (fromResult !== undefined) return fromResult;
  const spans = taskSpans(value, trace.task);
  if (spans.some((span) => wordsOf(span.text).some((word) => !isGenericWord(word.text)))) return { kind: 'task', whole: false, spans };
  return resultTextSource(value, earlier) ?? modelTextSource(value, trace, earlier) ?? { kind: 'constant' };
}

function wholeValueInTask(value: string, task: string): boolean {
  const needle = value.trim().toLowerCase();
  if (needle === '') return false;
  const haystack = task.toLowerCase();
  let index = haystack.indexOf(needle);
  while (index >= 0) {
    const before = haystack[index - 1];
    const after = haystack[index + needle.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return true;
    index = haystack.indexOf(needle, index + 1);
  }
  return false;
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

function resultSource(value: string | number, earlier: readonly TraceStep[]): ValueSource | undefined {
  for (let position = earlier.length - 1; position >= 0; position -= 1) {
    const step = earlier[position]!;
    if (typeof step.result !== 'object' || step.result === null) continue;
    const leaf = jsonLeaves(step.result).find((candidate) => candidate.value === value);
    if (leaf !== undefined) return { kind: 'result', step: position, path: leaf.path };
  }
  return undefined;
}

function resultTextSource(value: string, earlier: readonly TraceStep[]): ValueSource | undefined {
  if (value.length < 3) return undefined;
  for (let position = earlier.length - 1; position >= 0; position -= 1) {
    const text = earlier[position]!.result;
    if (typeof text !== 'string') continue;
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
