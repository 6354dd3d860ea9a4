import type { UtilityModel } from '../core/index.js';
import type { SkillDocument, VariableSchema } from './document/skill-document.js';
import { isGenericWord, wordsOf } from './generic-words.js';
import { isIdLike } from './value-shapes.js';

/** How each input of a replay was read from a free-text task, and which required ones it does not say. */
export interface InputExtraction {
  readonly inputs: Record<string, unknown>;
  /** Per input: `template` (the task reads as the skill's template), `anchor` (after the words that preceded it when recorded), `shape` (the only value of its shape), `enum` (the only allowed value named), `model`. */
  readonly sources: Record<string, 'template' | 'anchor' | 'shape' | 'enum' | 'model'>;
  readonly missing: readonly string[];
  /** `deterministically`, or `with one model call`. */
  readonly method: string;
  readonly llm_calls: number;
}

export interface ExtractionOptions {
  /** Inputs the task template already read (exact match). */
  readonly fromTemplate?: Readonly<Record<string, string>>;
  /** One small structured call for what rules could not read; absent: rules only. */
  readonly model?: UtilityModel;
  readonly signal?: AbortSignal;
}

const EXTRACTION_MAX_OUTPUT_TOKENS = 300;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern body for values shaped like `example`: letter runs stay letter runs, digit runs keep their length, the rest is literal. */
function shapeBody(example: string): string {
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(example)) return '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}';
  return example.replace(/[A-Za-z]+|\d+|[^A-Za-z\d]/g, (part) => (/^[A-Za-z]+$/.test(part) ? '[A-Za-z]+' : /^\d+$/.test(part) ? `\\d{${part.length}}` : escape(part)));
}

/** Whether `value` has the shape of `example` (`#W2890441` for `#W1234567`). */
export function hasShapeOf(value: string, example: string): boolean {
  return new RegExp(`^${shapeBody(example)}$`).test(value);
}

/** Whether `task` names `value` as a whole word or phrase: case-insensitive, and no letter, digit or _ right before or after it. */
export function mentioned(value: string, task: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escape(value.toLowerCase())}(?![\\p{L}\\p{N}_])`, 'u').test(task.toLowerCase());
}

/** The words just before a recorded value in its recorded task (`zip code is`), when they say something. */
function anchorsFor(document: SkillDocument, name: string): string[] {
  const anchors: string[] = [];
  for (const recording of document.recordings) {
    const value = recording.inputs[name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const at = recording.task.toLowerCase().indexOf(String(value).toLowerCase());
    if (at <= 0) continue;
    const before = wordsOf(recording.task.slice(0, at)).slice(-3);
    if (before.length === 0 || before.every((word) => isGenericWord(word.text))) continue;
    anchors.push(before.map((word) => word.lower).join(' '));
  }
  return [...new Set(anchors)];
}

function byAnchor(anchors: readonly string[], example: string, task: string): string | undefined {
  const found = new Set<string>();
  const valueWords = Math.min(6, Math.max(1, example.trim().split(/\s+/).length));
  for (const anchor of anchors) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${anchor.split(' ').map(escape).join('[^\\p{L}\\p{N}]+')}[^\\p{L}\\p{N}#]+([^\\s,;.!?]+(?:\\s+[^\\s,;.!?]+){${valueWords - 1}})`, 'giu');
    for (const match of task.matchAll(pattern)) {
      const value = match[1]!.trim();
      if (value !== '' && (!isIdLike(example) || hasShapeOf(value, example))) found.add(value);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

function byShape(example: string, task: string): string[] {
  const pattern = new RegExp(`(?<![A-Za-z0-9_#-])${shapeBody(example)}(?![A-Za-z0-9_-])`, 'g');
  return [...new Set([...task.matchAll(pattern)].map((match) => match[0]))];
}

function exampleOf(variable: VariableSchema): unknown {
  return variable.examples[0];
}

/**
 * Reads a skill's inputs from a free-text task, deterministically where it can: the template's own
 * reading, then per input the only allowed value the task names (an enum), the value after the words
 * that preceded it when recorded (`zip code is …`), or the only value of its shape (an order id, an
 * email); two inputs of one shape with one value in the task are not guessed. What is left goes to one
 * small structured model call when a model is given, whose answers must appear in the task verbatim
 * (selection, not invention) or are dropped. Whatever is still missing is reported, never filled in.
 */
export async function extractSkillInputs(document: SkillDocument, task: string, options: ExtractionOptions = {}): Promise<InputExtraction> {
  const properties = document.variables_schema.properties;
  const inputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const sources: InputExtraction['sources'] = Object.create(null) as InputExtraction['sources'];
  for (const [name, value] of Object.entries(options.fromTemplate ?? {})) {
    if (!Object.hasOwn(properties, name)) continue;
    inputs[name] = value;
    sources[name] = 'template';
  }
  // Inputs recorded with the same value from the same request words are one thing the user said once.
  const recorded = document.recordings[0]!.inputs;
  for (const name of Object.keys(properties)) {
    if (Object.hasOwn(inputs, name)) continue;
    const alias = Object.keys(inputs).find((other) => recorded[other] !== undefined && JSON.stringify(recorded[other]) === JSON.stringify(recorded[name]) && document.variable_origins[name]?.kind === 'argument' && document.variable_origins[name].from === 'request');
    if (alias !== undefined) {
      inputs[name] = inputs[alias];
      sources[name] = sources[alias]!;
    }
  }
  const open = () => document.variables_schema.required.filter((name) => !Object.hasOwn(inputs, name));
  const shapes = new Map<string, string[]>();
  for (const name of open()) {
    const example = exampleOf(properties[name]!);
    if (typeof example === 'string' && isIdLike(example)) shapes.set(name, byShape(example, task));
  }
  for (const name of open()) {
    const variable = properties[name]!;
    const example = exampleOf(variable);
    if (variable.enum !== undefined) {
      const named = variable.enum.filter((allowed) => mentioned(String(allowed), task));
      if (named.length === 1) {
        inputs[name] = named[0];
        sources[name] = 'enum';
      }
      continue;
    }
    if (variable.type === 'array' || (typeof example !== 'string' && typeof example !== 'number')) continue;
    const anchored = byAnchor(anchorsFor(document, name), String(example), task);
    if (anchored !== undefined) {
      inputs[name] = anchored;
      sources[name] = 'anchor';
      continue;
    }
    const values = shapes.get(name);
    const sameShape = [...shapes.entries()].filter(([other, found]) => other !== name && found.join() === values?.join()).length;
    if (values !== undefined && values.length === 1 && sameShape === 0) {
      inputs[name] = values[0];
      sources[name] = 'shape';
    }
  }
  let llmCalls = 0;
  if (open().length > 0 && options.model !== undefined) {
    llmCalls = 1;
    const answered = await askModel(options.model, document, task, open(), options.signal);
    for (const [name, value] of Object.entries(answered)) {
      inputs[name] = value;
      sources[name] = 'model';
    }
  }
  const missing = open();
  return { inputs, sources, missing, method: llmCalls === 0 ? 'deterministically' : 'with one model call', llm_calls: llmCalls };
}

async function askModel(model: UtilityModel, document: SkillDocument, task: string, names: readonly string[], signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const properties = document.variables_schema.properties;
  const fields = names.map((name) => {
    const variable = properties[name]!;
    return `- ${name} (${variable.type === 'array' ? `list of ${variable.items?.type ?? 'string'}` : variable.type}${variable.enum === undefined ? '' : `, one of ${variable.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`}): ${variable.description}`;
  });
  const answer = await model.complete({
    system: 'You read values out of a request. Answer with one JSON object and nothing else. Copy each value exactly as the request writes it; use null for anything the request does not say. Never make a value up.',
    prompt: `Request: ${task}\n\nValues to read:\n${fields.join('\n')}\n\nJSON:`,
    maxOutputTokens: EXTRACTION_MAX_OUTPUT_TOKENS,
    purpose: 'skill-inputs',
    ...(signal === undefined ? {} : { signal }),
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const accepted: Record<string, unknown> = {};
  for (const name of names) {
    if (!Object.hasOwn(parsed, name)) continue;
    const value = (parsed as Record<string, unknown>)[name];
    const variable = properties[name]!;
    const inTask = (item: unknown) => (typeof item === 'string' || typeof item === 'number') && String(item).trim() !== '' && mentioned(String(item), task);
    if (variable.enum !== undefined ? variable.enum.some((allowed) => allowed === value) : variable.type === 'array' ? Array.isArray(value) && value.length > 0 && value.every(inTask) : inTask(value)) accepted[name] = value;
  }
  return accepted;
}
