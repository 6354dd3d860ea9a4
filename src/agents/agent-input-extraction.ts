import type { UtilityModel } from '../core/index.js';
import { mentioned } from '../skills/index.js';
import type { AgentDefinition, AgentParameter } from './agent-definition.js';
import { jsonInText } from './json-in-text.js';
import type { ParameterValue } from './prompt-variables.js';

/**
 * How a parameter got its value: `explicit` (`key: value`, `key=value`, `--key value`), `boolean`
 * (`key: yes/no/true/false`), `enum` (the only allowed value the message names), `number` (the
 * message's only number), `model` (the one structured call), `default` (the definition's, when
 * nothing else gave one).
 */
export type ParameterSource = 'explicit' | 'enum' | 'number' | 'boolean' | 'default' | 'model';

/** A value the message states for a parameter that does not fit it (`depth: medium` for quick|deep). */
export interface RejectedParameterValue {
  readonly name: string;
  /** The value as the message writes it (at most 100 characters). */
  readonly given: string;
  readonly problem: string;
}

/** The parameters read from one message. */
export interface AgentParameterExtraction {
  /** Each parameter that has a value, of its type. One not listed has none: resolveAgentParameters gives it null, or refuses it when required. */
  readonly values: Record<string, ParameterValue>;
  readonly how: Record<string, ParameterSource>;
  /** Required parameters with no value, in definition order: what to ask for. */
  readonly missing: readonly string[];
  /** Values the message states that do not fit their parameter. Such a parameter gets no value (not even its default) and goes to no model: ask again. */
  readonly rejected: readonly RejectedParameterValue[];
  readonly modelCalls: 0 | 1;
}

export interface AgentParameterExtractionOptions {
  /** For the one structured call about what the rules could not read; absent: rules and defaults only. */
  readonly utilityModel?: UtilityModel;
  readonly signal?: AbortSignal;
}

/** Output tokens the structured call may spend per parameter asked (a text value can be a sentence or two). */
const MODEL_TOKENS_PER_PARAMETER = 200;
const MODEL_TOKENS_BASE = 100;
const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = { yes: true, true: true, no: false, false: false };
const NUMBER = /^[-+]?\d+(?:\.\d+)?$/;
const OPENING_QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’', '«': '»' };

type Reading = { readonly value: ParameterValue; readonly given: string; readonly end: number } | { readonly problem: string; readonly given: string; readonly end: number };

/** Where the message names a parameter as a key, and where the value after it starts. */
interface KeyMention {
  readonly parameter: AgentParameter;
  readonly start: number;
  readonly valueStart: number;
}

/** `max_items` as the message may write it: `max_items`, `max-items`, `Max Items`. Names are lower_snake_case, so nothing needs escaping. */
function keyPattern(name: string): string {
  return name.split('_').join('[-_ ]');
}

function keyMentions(parameters: readonly AgentParameter[], message: string): KeyMention[] {
  const mentions: KeyMention[] = [];
  for (const parameter of parameters) {
    const key = keyPattern(parameter.name);
    const pattern = new RegExp(`(?:(?<![\\p{L}\\p{N}_-])${key}[ \\t]*[:=]|(?<!\\S)--${key}(?:=|[ \\t]+))[ \\t]*`, 'giu');
    for (const match of message.matchAll(pattern)) mentions.push({ parameter, start: match.index, valueStart: match.index + match[0].length });
  }
  mentions.sort((left, right) => left.start - right.start || right.valueStart - left.valueStart);
  // `max items: 3` also reads as `items: 3`; the longer key, which starts first, is the one meant.
  const kept: KeyMention[] = [];
  for (const mention of mentions) {
    if (mention.start >= (kept.at(-1)?.valueStart ?? 0)) kept.push(mention);
  }
  return kept;
}

/** `text` without any of `characters` at its end. A loop, not `/[…]+$/`, which is quadratic on a long run of them mid-text. */
function withoutTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

/** A sentence's final period is not part of the value; an ellipsis is. */
function withoutFinalPeriod(text: string): string {
  return text.endsWith('.') && !text.endsWith('..') ? text.slice(0, -1) : text;
}

function cut(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** The quoted value at the start of `span`, when it opens with a quote that closes on the same line. */
function quoted(span: string): { text: string; length: number } | undefined {
  const close = OPENING_QUOTES[span[0] ?? ''];
  if (close === undefined) return undefined;
  const end = span.indexOf(close, 1);
  return end === -1 ? undefined : { text: span.slice(1, end), length: end + 1 };
}

/**
 * The value a key mention gives, from `span` (the text after the key, up to the end of the line or
 * the next key): text takes all of it (a trailing comma, semicolon or period dropped), the other types
 * one token (an enum value may be several words).
 */
function readValue(parameter: AgentParameter, span: string, valueStart: number): Reading | undefined {
  const inQuotes = quoted(span);
  if (parameter.type === 'text') {
    const text = inQuotes?.text ?? withoutFinalPeriod(withoutTrailing(span, ' \t\r,;'));
    const length = inQuotes?.length ?? span.length;
    return text.trim() === '' ? undefined : { value: text.trim(), given: cut(text.trim()), end: valueStart + length };
  }
  if (parameter.type === 'enum') {
    const values = [...(parameter.values ?? [])].sort((left, right) => right.length - left.length);
    const lower = (inQuotes?.text ?? span).toLowerCase();
    const named = values.find((value) => lower.startsWith(value.toLowerCase()) && !/[\p{L}\p{N}_]/u.test(lower[value.length] ?? ''));
    if (named !== undefined) return { value: named, given: named, end: valueStart + (inQuotes?.length ?? named.length) };
  }
  const token = inQuotes?.text ?? withoutTrailing(/^\S*/.exec(span)![0], ',;.!?)');
  if (token === '') return undefined;
  const end = valueStart + (inQuotes?.length ?? token.length);
  switch (parameter.type) {
    case 'number':
      return NUMBER.test(token) ? { value: Number(token), given: token, end } : { problem: 'must be a number', given: cut(token), end };
    case 'boolean': {
      const value = BOOLEAN_WORDS[token.toLowerCase()];
      return value === undefined ? { problem: 'must be yes, no, true or false', given: cut(token), end } : { value, given: token, end };
    }
    default:
      return { problem: `must be one of ${(parameter.values ?? []).join(', ')}`, given: cut(token), end };
  }
}

interface ExplicitReadings {
  readonly values: Map<string, { value: ParameterValue; how: 'explicit' | 'boolean' }>;
  readonly rejected: RejectedParameterValue[];
  /** The message with every key and the value read after it blanked out, for the rules that look at the rest. */
  readonly rest: string;
}

function readExplicit(parameters: readonly AgentParameter[], message: string): ExplicitReadings {
  const mentions = keyMentions(parameters, message);
  const readings = new Map<string, Reading[]>();
  const read: { start: number; end: number }[] = [];
  // Mentions come in order, so one end of line serves every mention before it: linear in the message.
  let lineEnd = -1;
  mentions.forEach((mention, index) => {
    if (lineEnd < mention.valueStart) {
      lineEnd = message.indexOf('\n', mention.valueStart);
      if (lineEnd === -1) lineEnd = message.length;
    }
    const spanEnd = Math.min(lineEnd, mentions[index + 1]?.start ?? message.length);
    const reading = readValue(mention.parameter, message.slice(mention.valueStart, spanEnd), mention.valueStart);
    if (reading === undefined) return;
    const earlier = readings.get(mention.parameter.name);
    if (earlier === undefined) readings.set(mention.parameter.name, [reading]);
    else earlier.push(reading);
    read.push({ start: mention.start, end: reading.end });
  });
  let rest = '';
  let from = 0;
  for (const { start, end } of read) {
    rest += message.slice(from, start) + ' '.repeat(end - start);
    from = end;
  }
  rest += message.slice(from);
  const values: ExplicitReadings['values'] = new Map();
  const rejected: RejectedParameterValue[] = [];
  for (const parameter of parameters) {
    const found = readings.get(parameter.name);
    if (found === undefined) continue;
    const invalid = found.find((reading) => 'problem' in reading);
    const distinct = [...new Set(found.flatMap((reading) => ('value' in reading ? [reading.value] : [])))];
    if (invalid !== undefined && 'problem' in invalid) rejected.push({ name: parameter.name, given: invalid.given, problem: invalid.problem });
    else if (distinct.length === 1) values.set(parameter.name, { value: distinct[0]!, how: parameter.type === 'boolean' ? 'boolean' : 'explicit' });
    else rejected.push({ name: parameter.name, given: cut(found.map((reading) => reading.given).join(' / ')), problem: 'is given more than once, with different values' });
  }
  return { values, rejected, rest };
}

/** Per open enum parameter, its value when the message names exactly one of its values and no other open enum parameter also has that word. */
function readEnums(open: readonly AgentParameter[], rest: string): Map<string, string> {
  // A plain substring search first: it rules most values out far faster than the word-bounded match.
  const lower = rest.toLowerCase();
  const isNamed = (value: string) => lower.includes(value.toLowerCase()) && mentioned(value, rest);
  const named = new Map(open.filter((parameter) => parameter.type === 'enum').map((parameter) => [parameter.name, (parameter.values ?? []).filter(isNamed)]));
  const claims = new Map<string, number>();
  for (const values of named.values()) for (const value of values) claims.set(value.toLowerCase(), (claims.get(value.toLowerCase()) ?? 0) + 1);
  const found = new Map<string, string>();
  for (const [name, values] of named) {
    if (values.length === 1 && claims.get(values[0]!.toLowerCase()) === 1) found.set(name, values[0]!);
  }
  return found;
}

/** The message's numbers: words that are a number once brackets, quotes and sentence punctuation around them are dropped (`v2`, `gpt-4`, `2024-05-01` are not). */
function numbersIn(text: string): number[] {
  const words = text.split(/\s+/).map((word) => withoutTrailing(word.replace(/^[([{"'“‘]+/, ''), ')]}"\'”’,;:.!?'));
  return [...new Set(words.filter((word) => NUMBER.test(word)).map(Number))];
}

function jsonType(parameter: AgentParameter): string {
  return parameter.type === 'text' || parameter.type === 'enum' ? 'string' : parameter.type;
}

/** The JSON Schema of the structured call's answer: each parameter asked, of its type or null. */
function answerSchema(parameters: readonly AgentParameter[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        {
          type: [jsonType(parameter), 'null'],
          ...(parameter.values === undefined ? {} : { enum: [...parameter.values, null] }),
          ...(parameter.description === '' ? {} : { description: parameter.description }),
        },
      ]),
    ),
    required: parameters.map((parameter) => parameter.name),
    additionalProperties: false,
  };
}

/** A value the model gave, when it fits the parameter; anything else is dropped, never mended into a guess. */
function acceptedModelValue(parameter: AgentParameter, value: unknown): ParameterValue | undefined {
  switch (parameter.type) {
    case 'text':
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'enum': {
      if (typeof value !== 'string') return undefined;
      const matches = (parameter.values ?? []).filter((allowed) => allowed.toLowerCase() === value.trim().toLowerCase());
      return matches.includes(value) ? value : matches.length === 1 ? matches[0] : undefined;
    }
  }
}

async function askModel(
  model: UtilityModel,
  definition: Pick<AgentDefinition, 'name' | 'description'>,
  parameters: readonly AgentParameter[],
  message: string,
  signal: AbortSignal | undefined,
): Promise<Map<string, ParameterValue>> {
  const answer = await model.complete({
    system:
      "You read the values of an agent's parameters out of a person's message. Answer with one JSON object matching the JSON Schema given, and nothing else. Use null for every parameter the message does not state; never make a value up or pick a plausible one.",
    prompt: `Agent: ${definition.name}${definition.description === '' ? '' : ` (${definition.description})`}\n\nMessage:\n${message}\n\nJSON Schema of your answer:\n${JSON.stringify(answerSchema(parameters))}\n\nJSON:`,
    maxOutputTokens: MODEL_TOKENS_BASE + MODEL_TOKENS_PER_PARAMETER * parameters.length,
    purpose: 'agent-parameters',
    ...(signal === undefined ? {} : { signal }),
  });
  const read = jsonInText(answer);
  const accepted = new Map<string, ParameterValue>();
  if (!read.found || typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) return accepted;
  const answered = read.value as Record<string, unknown>;
  for (const parameter of parameters) {
    const value = Object.hasOwn(answered, parameter.name) ? acceptedModelValue(parameter, answered[parameter.name]) : undefined;
    if (value !== undefined) accepted.set(parameter.name, value);
  }
  return accepted;
}

/**
 * Fills an agent's parameters from a chat message, deterministically where the message is explicit:
 * `key: value`, `key=value` or `--key value` for a parameter's name (any case; `_`, `-` or a space
 * between its words), `key: yes/no/true/false` for a boolean, an enum's value named as a word (only
 * when exactly one of its values is, and no other enum parameter has that word), and a number
 * parameter's value when the message holds exactly one number (and only one number parameter is still
 * open). When the rules leave a parameter without a default unread and a utility model is given, ONE
 * structured call asks for every parameter still unread (their JSON Schema; a default is a fallback
 * the message may override); an answer that does not fit its parameter's type or values is dropped.
 * Unread parameters with defaults alone cost no call. Then defaults apply. A required parameter still
 * without a value is listed in `missing`, never filled with a guess; a stated value that does not fit
 * is in `rejected`.
 */
export async function extractAgentParameters(
  definition: Pick<AgentDefinition, 'name' | 'description' | 'parameters'>,
  message: string,
  options: AgentParameterExtractionOptions = {},
): Promise<AgentParameterExtraction> {
  const { parameters } = definition;
  const values: Record<string, ParameterValue> = {};
  const how: Record<string, ParameterSource> = {};
  const set = (name: string, value: ParameterValue, source: ParameterSource) => {
    values[name] = value;
    how[name] = source;
  };
  const explicit = readExplicit(parameters, message);
  for (const [name, reading] of explicit.values) set(name, reading.value, reading.how);
  const rejectedNames = new Set(explicit.rejected.map((rejected) => rejected.name));
  const open = () => parameters.filter((parameter) => !Object.hasOwn(values, parameter.name) && !rejectedNames.has(parameter.name));
  for (const [name, value] of readEnums(open(), explicit.rest)) set(name, value, 'enum');
  const openNumbers = open().filter((parameter) => parameter.type === 'number');
  const numbers = numbersIn(explicit.rest);
  if (openNumbers.length === 1 && numbers.length === 1) set(openNumbers[0]!.name, numbers[0]!, 'number');
  let modelCalls: 0 | 1 = 0;
  const unread = open();
  // A default already answers for its parameter, so it alone is no reason to call; once a call is made,
  // it asks for every unread parameter, as the message may override a default in so many words.
  if (unread.some((parameter) => parameter.default === undefined) && options.utilityModel !== undefined) {
    modelCalls = 1;
    for (const [name, value] of await askModel(options.utilityModel, definition, unread, message, options.signal)) set(name, value, 'model');
  }
  for (const parameter of open()) {
    if (parameter.default !== undefined) set(parameter.name, parameter.default, 'default');
  }
  const missing = parameters.filter((parameter) => parameter.required && !Object.hasOwn(values, parameter.name)).map((parameter) => parameter.name);
  return { values, how, missing, rejected: explicit.rejected, modelCalls };
}

function kindOf(parameter: AgentParameter): string {
  switch (parameter.type) {
    case 'enum':
      return `one of ${(parameter.values ?? []).join(', ')}`;
    case 'boolean':
      return 'yes or no';
    case 'number':
      return 'a number';
    case 'text':
      return 'text';
  }
}

/**
 * What is wrong with the parameters an extraction read: one line per required parameter it left
 * without a value or stated value it rejected, in definition order; empty when there is nothing to ask.
 */
export function parameterProblems(definition: Pick<AgentDefinition, 'parameters'>, extraction: Pick<AgentParameterExtraction, 'missing' | 'rejected'>): { readonly asked: readonly string[]; readonly lines: readonly string[] } {
  const asked: string[] = [];
  const lines: string[] = [];
  for (const parameter of definition.parameters) {
    const rejected = extraction.rejected.find((entry) => entry.name === parameter.name);
    if (rejected !== undefined) lines.push(`${parameter.name}: ${JSON.stringify(rejected.given)} ${rejected.problem}`);
    else if (extraction.missing.includes(parameter.name)) lines.push(`${parameter.name} (${kindOf(parameter)})${parameter.description === '' ? '' : `: ${parameter.description}`}`);
    else continue;
    asked.push(parameter.name);
  }
  return { asked, lines };
}

/**
 * What a chat asks when an extraction left required parameters without a value or rejected a stated
 * one, or undefined when it did neither. The reply it suggests (`name: value`, one a line) is the form
 * `extractAgentParameters` reads without a model. Outside a chat the problems are an `AgentParameterError`
 * instead, whose hint names `--param` (see `parameterProblems`).
 */
export function parameterQuestion(definition: Pick<AgentDefinition, 'name' | 'parameters'>, extraction: Pick<AgentParameterExtraction, 'missing' | 'rejected'>): string | undefined {
  const { asked, lines } = parameterProblems(definition, extraction);
  if (lines.length === 0) return undefined;
  return [`To run ${definition.name} I need ${lines.length === 1 ? 'a value' : 'values'} for:`, ...lines.map((line) => `- ${line}`), '', `Reply with each as \`${asked[0]!}: …\`, one a line.`].join('\n');
}
