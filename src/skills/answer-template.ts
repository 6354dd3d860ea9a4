import { withJsonTextRead } from '../tools/index.js';
import { canonicalJson } from '../core/canonical-json.js';
import { mentionedInTask } from './dataflow.js';
import type { AnswerSlot, AnswerTemplate, AnswerText } from './document/skill-document.js';
import { isGenericWord, wordsOf } from './generic-words.js';
import { formatJsonPath, jsonLeaves, type JsonPath } from './json-path.js';

/** A recorded value the answer may have stated, with the slot that gives it at replay. */
interface Candidate {
  readonly text: string;
  readonly slot: AnswerSlot;
  /** The slot's name: the input's, or the result field's key. */
  readonly name: string;
}

/** Longer strings are passages, not values: an answer quoting part of a page is the model's reading of it. */
const maxValueLength = 200;

/** A number as an answer writes it: `1,299.50`, `7`, `0.25`. */
const numberToken = /\d[\d,]*(?:\.\d+)?/gu;
/** A token holding a digit (a date, a count, a version, an id). */
const valueToken = /[\p{L}\p{N}]*\d[\p{L}\p{N}.,:/-]*/gu;

function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /[\p{L}\p{N}_]/u.test(character);
}

/** Where `needle` stands alone in `text` (not inside a longer word or number). */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (!isWordCharacter(text[at - 1]) && !isWordCharacter(text[at + needle.length])) found.push(at);
  }
  return found;
}

/** A slot name from a result field's key: `eta`, `order_status`; `value` when the key says nothing. */
function slotNameOf(path: JsonPath): string {
  const key = path.findLast((segment): segment is string => typeof segment === 'string') ?? 'value';
  return key.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '').replace(/_+$/, '') || 'value';
}

function leafOrder(path: JsonPath): number {
  return path.filter((segment) => typeof segment === 'number').length * 1_000 + path.length;
}

/**
 * Every value the recording had that an answer may state: the inputs (a value the caller gave is the
 * caller's), then each scalar of each step's result (JSON text inside read as JSON), fixed places before
 * entries of lists and the earliest step first, so a value present twice binds to where it first sat.
 * Result text that the task says too is the user's own wording, and generic words are no values.
 */
function candidatesOf(results: readonly unknown[], inputs: Readonly<Record<string, unknown>>, task: string): Map<string, Candidate> {
  const byText = new Map<string, Candidate>();
  for (const [name, value] of Object.entries(inputs)) {
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') byText.set(String(value), { text: String(value), slot: { kind: 'input', name }, name });
  }
  const leaves = results.flatMap((result, step) => jsonLeaves(withJsonTextRead(result)).map((leaf) => ({ ...leaf, step })));
  leaves.sort((left, right) => leafOrder(left.path) - leafOrder(right.path) || left.step - right.step);
  for (const leaf of leaves) {
    if (typeof leaf.value !== 'string' && typeof leaf.value !== 'number') continue;
    const text = String(leaf.value);
    if (byText.has(text) || text.trim().length < 2 || text.length > maxValueLength) continue;
    if (typeof leaf.value === 'string' && (isGenericWord(text) || mentionedInTask(text, task))) continue;
    byText.set(text, { text, slot: { kind: 'result', step: leaf.step, path: formatJsonPath(leaf.path) }, name: slotNameOf(leaf.path) });
  }
  return byText;
}

/** Words of the results' text: what a summary of them is made of. */
function resultWords(results: readonly unknown[]): Set<string> {
  const words = new Set<string>();
  for (const leaf of results.flatMap((result) => jsonLeaves(withJsonTextRead(result)))) {
    if (typeof leaf.value === 'string') for (const word of wordsOf(leaf.value)) words.add(word.lower);
  }
  return words;
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly slot: AnswerSlot;
  readonly name: string;
}

class SlotNames {
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>();

  /** One name per distinct slot: the same value stated twice is one slot. */
  nameFor(slot: AnswerSlot, wanted: string): string {
    const key = canonicalJson(slot);
    const known = this.names.get(key);
    if (known !== undefined) return known;
    let name = wanted;
    for (let suffix = 2; this.taken.has(name); suffix += 1) name = `${wanted}_${suffix}`;
    this.names.set(key, name);
    this.taken.add(name);
    return name;
  }
}

/**
 * The text's wording with its values as slots: each stated value found among the recording's inputs and
 * results binds to where it came from (longest first, so `2026-12-03` is not read as `12`); numbers
 * match by value (`12.50` for 12.5, keeping the places written); a number, date or id left over, and a
 * word the results hold but neither the task nor any one value does (the model summarised them), is
 * `unbound`.
 */
function textTemplate(text: string, candidates: Map<string, Candidate>, words: ReadonlySet<string>, task: string, names: SlotNames): AnswerText {
  const spans: Span[] = [];
  const free = (start: number, end: number) => spans.every((span) => end <= span.start || start >= span.end);
  for (const candidate of [...candidates.values()].sort((left, right) => right.text.length - left.text.length)) {
    for (const at of occurrences(text, candidate.text)) {
      if (free(at, at + candidate.text.length)) spans.push({ start: at, end: at + candidate.text.length, slot: candidate.slot, name: candidate.name });
    }
  }
  const numbers = [...candidates.values()].filter((candidate) => /^-?\d+(?:\.\d+)?$/.test(candidate.text));
  for (const match of text.matchAll(numberToken)) {
    const start = match.index;
    const end = start + match[0].length;
    if (!free(start, end) || isWordCharacter(text[start - 1]) || isWordCharacter(text[end])) continue;
    const value = Number(match[0].replace(/,/g, ''));
    const found = numbers.find((candidate) => Number(candidate.text) === value);
    if (found === undefined) continue;
    const places = match[0].includes('.') ? match[0].split('.')[1]!.length : 0;
    const slot: AnswerSlot = found.slot.kind === 'result' && match[0] !== found.text ? { ...found.slot, decimals: places } : found.slot;
    spans.push({ start, end, slot, name: found.name });
  }
  for (const match of text.matchAll(valueToken)) {
    const token = match[0].replace(/[.,:/-]+$/, '');
    const start = match.index;
    const end = start + token.length;
    if (token === '' || !free(start, end) || task.includes(token)) continue;
    spans.push({ start, end, slot: { kind: 'unbound', recorded: token }, name: 'value' });
  }
  for (const word of wordsOf(text)) {
    if (word.lower.length < 4 || isGenericWord(word.lower) || !words.has(word.lower) || mentionedInTask(word.text, task) || !free(word.start, word.end)) continue;
    spans.push({ start: word.start, end: word.end, slot: { kind: 'unbound', recorded: word.text }, name: 'value' });
  }
  spans.sort((left, right) => left.start - right.start);
  let template = '';
  let cursor = 0;
  const slots: Record<string, AnswerSlot> = {};
  for (const span of spans) {
    const name = names.nameFor(span.slot, span.name);
    slots[name] = span.slot;
    template += `${text.slice(cursor, span.start).replace(/\{\{/g, '{ {')}{{${name}}}`;
    cursor = span.end;
  }
  template += text.slice(cursor).replace(/\{\{/g, '{ {');
  return { kind: 'text', template, slots };
}

/** Where a structured value (a list, an object) sits whole in a result, if it does. */
function subtreeSlot(value: unknown, results: readonly unknown[]): AnswerSlot | undefined {
  const wanted = canonicalJson(value);
  const search = (node: unknown, path: (string | number)[]): (string | number)[] | undefined => {
    if (canonicalJson(node) === wanted) return path;
    if (typeof node !== 'object' || node === null) return undefined;
    for (const [key, item] of Object.entries(node)) {
      const found = search(item, [...path, Array.isArray(node) ? Number(key) : key]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const [step, result] of results.entries()) {
    const found = search(withJsonTextRead(result), []);
    if (found !== undefined) return { kind: 'result', step, path: formatJsonPath(found) };
  }
  return undefined;
}

/** One output field of a structured answer: a slot when the whole value is one recorded value, else a template of its text. */
function outputField(name: string, value: unknown, candidates: Map<string, Candidate>, words: ReadonlySet<string>, results: readonly unknown[], task: string): AnswerSlot | AnswerText {
  if (typeof value === 'string') {
    const text = textTemplate(value, candidates, words, task, new SlotNames());
    const whole = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(text.template)?.[1];
    return whole === undefined ? text : text.slots[whole]!;
  }
  if (typeof value === 'number') {
    const same = [...candidates.values()].filter((candidate) => candidate.text === String(value));
    return (same.find((candidate) => candidate.name === slotNameOf([name])) ?? same[0])?.slot ?? { kind: 'unbound', recorded: String(value) };
  }
  if (typeof value === 'boolean' || value === null) {
    for (const [step, result] of results.entries()) {
      const leaf = jsonLeaves(withJsonTextRead(result)).find((candidate) => candidate.value === value && candidate.path.at(-1) === name);
      if (leaf !== undefined) return { kind: 'result', step, path: formatJsonPath(leaf.path) };
    }
    return { kind: 'unbound', recorded: JSON.stringify(value) };
  }
  return subtreeSlot(value, results) ?? { kind: 'unbound', recorded: JSON.stringify(value) };
}

function structuredAnswer(answer: string): Record<string, unknown> | undefined {
  const trimmed = answer.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length > 0 ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer template of a recording, abstracted like its arguments: the final answer's values bound to
 * the inputs and step results they came from, so a replay states this replay's values in the recorded
 * answer's form. A JSON object answer (an agent's structured outputs) keeps its fields and types.
 * Undefined when the run gave no answer.
 */
export function abstractAnswer(answer: string | null, results: readonly unknown[], inputs: Readonly<Record<string, unknown>>, task: string): AnswerTemplate | undefined {
  if (answer === null || answer.trim() === '') return undefined;
  const candidates = candidatesOf(results, inputs, task);
  const words = resultWords(results);
  const outputs = structuredAnswer(answer);
  if (outputs === undefined) return textTemplate(answer, candidates, words, task, new SlotNames());
  return { kind: 'outputs', fields: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, outputField(name, value, candidates, words, results, task)])) };
}
