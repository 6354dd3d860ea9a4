import { inputSchemaFromJsonSchema } from '../tools/mcp/index.js';
import type { AgentDefinition, AgentOutput, OutputType } from './agent-definition.js';
import { describeExpectedJson, outputsJsonSchema } from './agent-outputs.js';
import { formatAgentPath } from './agent-path.js';
import { jsonInText, wholeTextJson } from './json-in-text.js';

/** The most problems one validation reports; a reply wrong in a thousand places says so in one more line. */
export const MAX_OUTPUT_ERRORS = 20;

/** A final answer checked against an agent's outputs: the value of each output by name, or every way it does not fit and the answer as given. */
export type AgentOutputValidation =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly errors: readonly string[]; readonly raw: string };

type OutputsOf = Pick<AgentDefinition, 'outputs'>;
type ScalarOutputType = Exclude<OutputType, 'json'>;

/** The output of an agent that has just one, when it is text, a number or a boolean: read bare, with no JSON around it. */
function soleScalarOutput(outputs: readonly AgentOutput[]): (AgentOutput & { readonly type: ScalarOutputType }) | undefined {
  const only = outputs.length === 1 ? outputs[0]! : undefined;
  return only !== undefined && isScalar(only) ? only : undefined;
}

function isScalar(output: AgentOutput): output is AgentOutput & { readonly type: ScalarOutputType } {
  return output.type !== 'json';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The start of a reply as an error quotes it. */
function preview(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 77)}...` : trimmed);
}

function failure(errors: readonly string[], raw: string): AgentOutputValidation {
  const listed = errors.length > MAX_OUTPUT_ERRORS ? [...errors.slice(0, MAX_OUTPUT_ERRORS), `…and ${errors.length - MAX_OUTPUT_ERRORS} more problems`] : errors;
  return { ok: false, errors: listed, raw };
}

/**
 * The reply object checked key by key: each output present, nothing else, and each value against
 * `outputsJsonSchema` (with the project's JSON Schema validator), every problem named by its path
 * (`sources[2].url: …`).
 */
function checkObject(outputs: readonly AgentOutput[], reply: Record<string, unknown>, raw: string): AgentOutputValidation {
  const errors: string[] = [];
  const names = outputs.map((output) => output.name);
  for (const name of names) {
    if (!Object.hasOwn(reply, name)) errors.push(`${formatAgentPath([name])}: missing`);
  }
  for (const key of Object.keys(reply)) {
    if (!names.includes(key)) errors.push(`${formatAgentPath([key])}: not an output of this agent (its outputs are ${names.join(', ')})`);
  }
  // Only the outputs present go to the schema: a missing or extra key is named above, once.
  const present = outputs.filter((output) => Object.hasOwn(reply, output.name));
  const value = Object.fromEntries(present.map((output) => [output.name, reply[output.name]]));
  const checked = inputSchemaFromJsonSchema(outputsJsonSchema(present)).safeParse(value);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
      errors.push(`${path.length === 0 ? '(the reply)' : formatAgentPath(path)}: ${issue.message}`);
    }
  }
  return errors.length === 0 ? { ok: true, value } : failure(errors, raw);
}

/** A reply that is the whole output as one JSON object keyed by its name, as an automation's postamble asks. */
function keyedReply(output: AgentOutput, answerText: string): Record<string, unknown> | undefined {
  const whole = wholeTextJson(answerText);
  if (!whole.found || !isPlainObject(whole.value)) return undefined;
  const keys = Object.keys(whole.value);
  return keys.length === 1 && keys[0] === output.name ? whole.value : undefined;
}

function bareValue(name: string, type: ScalarOutputType, answerText: string): AgentOutputValidation {
  switch (type) {
    case 'text': {
      const text = answerText.trim();
      return text === '' ? failure([`${name}: the reply is empty; it must be the text of the result`], answerText) : { ok: true, value: { [name]: text } };
    }
    case 'number': {
      const whole = wholeTextJson(answerText);
      return whole.found && typeof whole.value === 'number'
        ? { ok: true, value: { [name]: whole.value } }
        : failure([`${name}: expected a number alone (like 42) or ${JSON.stringify({ [name]: 42 })}; the reply is ${preview(answerText)}`], answerText);
    }
    case 'boolean': {
      const word = answerText.trim().toLowerCase();
      return word === 'true' || word === 'false'
        ? { ok: true, value: { [name]: word === 'true' } }
        : failure([`${name}: expected true or false alone, or ${JSON.stringify({ [name]: true })}; the reply is ${preview(answerText)}`], answerText);
    }
  }
}

/**
 * Checks a run's final answer against the definition's outputs and reads their values.
 *
 * - No outputs: any answer; the value is `{}`.
 * - One text, number or boolean output: the bare value (any non-empty text; a JSON number; `true` or
 *   `false`), or one JSON object with just that key, which is then checked like several outputs.
 * - A json output, or several outputs: one JSON object with every output as a key and nothing else,
 *   matching `outputsJsonSchema`. The object may be the whole answer, a ```json block, or the first
 *   `{…}` in the text that parses.
 *
 * On failure, `errors` names each problem (at most `MAX_OUTPUT_ERRORS`, then a count) with the path
 * it is at, and `raw` is the answer as given: what `outputRetryMessage` and `AgentOutputError` carry.
 */
export function validateAgentOutput(definition: OutputsOf, answerText: string): AgentOutputValidation {
  const { outputs } = definition;
  if (outputs.length === 0) return { ok: true, value: {} };
  const only = soleScalarOutput(outputs);
  if (only !== undefined) {
    const keyed = keyedReply(only, answerText);
    return keyed === undefined ? bareValue(only.name, only.type, answerText) : checkObject(outputs, keyed, answerText);
  }
  const found = jsonInText(answerText);
  if (!found.found) return failure([found.problem], answerText);
  if (!isPlainObject(found.value)) return failure([`the reply must be one JSON object with the outputs as keys; it is ${kindOf(found.value)}`], answerText);
  return checkObject(outputs, found.value, answerText);
}

const VALUE_WORDS: Readonly<Record<ScalarOutputType, string>> = { text: 'the text of the result', number: 'the number', boolean: 'true or false' };

/**
 * The user message of the one retry after `validateAgentOutput` failed: each problem on its line,
 * then what to reply with, the expected JSON restated as `describeExpectedJson` writes it (the same
 * words as the automation postamble).
 */
export function outputRetryMessage(errors: readonly string[], definition: OutputsOf): string {
  const { outputs } = definition;
  const only = soleScalarOutput(outputs);
  const expected = describeExpectedJson(outputs);
  const reply =
    only !== undefined
      ? `Reply again with ${VALUE_WORDS[only.type]} alone and nothing else, or with one JSON object with this key:\n${expected}`
      : `Reply again with exactly one JSON object and nothing else (no text around it, no code fence). Its keys:\n${expected}`;
  return ['Your reply does not match the output this agent must return:', ...errors.map((error) => `- ${error}`), '', reply].join('\n');
}
