import { describeError, type UtilityModel } from '../../core/index.js';
import { capToolOutput, readableOutput, withJsonTextRead, wrapUntrusted } from '../../tools/index.js';
import type { AnswerSlot, AnswerTemplate, AnswerText, SkillDocument } from '../document/skill-document.js';
import { parseJsonPath, valueAtPath } from '../json-path.js';

/**
 * Where a replay's answer came from: `template`, the skill's answer template with every value bound to
 * this replay's inputs and results; `model`, one metered model call wrote it from the results because a
 * value of the template could not be bound; `results`, the last step's result as it came (no template,
 * or values left unbound and no model to write them: `answer_note` says which); `summary`, the
 * `--summarize` call; `dry-run`, what the writes would send.
 */
export type AnswerSource = 'template' | 'model' | 'results' | 'summary' | 'dry-run';

/** A replay's answer, its values by name and how it was made. */
export interface ReplayAnswer {
  readonly answer: string;
  /** The answer's values for this replay: each output field, or each named value of a text answer; for a skill without a template, the last result's fields. */
  readonly outputs: Record<string, unknown>;
  readonly source: AnswerSource;
  /** Why the answer is not the bound template, when it is not; null when it is. */
  readonly note: string | null;
}

/** The values of a template bound for one replay, and what could not be bound. */
interface BoundTemplate {
  readonly outputs: Record<string, unknown>;
  /** The bound answer; undefined when a value is unbound. */
  readonly answer: string | undefined;
  readonly unbound: readonly string[];
}

const ANSWER_MAX_OUTPUT_TOKENS = 300;
/** How much of the results (as JSON) the answer call is shown. */
const ANSWER_RESULTS_LIMIT = 12_000;

type SlotValue = { readonly ok: true; readonly value: unknown; readonly text: string } | { readonly ok: false; readonly why: string };

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value);
}

function slotValue(slot: AnswerSlot, results: readonly unknown[], inputs: Readonly<Record<string, unknown>>): SlotValue {
  switch (slot.kind) {
    case 'input':
      return Object.hasOwn(inputs, slot.name) ? { ok: true, value: inputs[slot.name], text: textOf(inputs[slot.name]) } : { ok: false, why: `the input "${slot.name}" was not given` };
    case 'result': {
      const value = valueAtPath(withJsonTextRead(results[slot.step]), parseJsonPath(slot.path) as (string | number)[]);
      if (value === undefined) return { ok: false, why: `step ${slot.step}'s result has no ${slot.path}` };
      return { ok: true, value, text: typeof value === 'number' && slot.decimals !== undefined ? value.toFixed(slot.decimals) : textOf(value) };
    }
    case 'unbound':
      return { ok: false, why: `"${slot.recorded}" came from no input or result of the recording` };
  }
}

function fill(text: AnswerText, results: readonly unknown[], inputs: Readonly<Record<string, unknown>>, unbound: string[], values?: Record<string, unknown>): string {
  return text.template.replace(/\{\{([a-z][a-z0-9_]*)\}\}/g, (whole, name: string) => {
    const slot = text.slots[name];
    if (slot === undefined) return whole;
    const bound = slotValue(slot, results, inputs);
    if (!bound.ok) {
      unbound.push(bound.why);
      return whole;
    }
    if (values !== undefined) values[name] = bound.value;
    return bound.text;
  });
}

/** Binds an answer template to a replay's results (each as skills read it) and inputs. */
export function bindAnswerTemplate(template: AnswerTemplate, results: readonly unknown[], inputs: Readonly<Record<string, unknown>>): BoundTemplate {
  const unbound: string[] = [];
  if (template.kind === 'text') {
    const outputs: Record<string, unknown> = {};
    const answer = fill(template, results, inputs, unbound, outputs);
    return { outputs, answer: unbound.length === 0 ? answer : undefined, unbound };
  }
  const outputs: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(template.fields)) {
    if (field.kind === 'text') {
      const before = unbound.length;
      const text = fill(field, results, inputs, unbound);
      outputs[name] = unbound.length === before ? text : null;
      continue;
    }
    const bound = slotValue(field, results, inputs);
    if (bound.ok) outputs[name] = bound.value;
    else {
      unbound.push(`${name}: ${bound.why}`);
      outputs[name] = null;
    }
  }
  return { outputs, answer: unbound.length === 0 ? JSON.stringify(outputs, null, 2) : undefined, unbound };
}

/** The output names a skill's replays give values to (what a product may declare as its output fields). */
export function answerOutputNames(document: SkillDocument): string[] {
  const template = document.answer;
  if (template === undefined) return document.output_contract.steps.at(-1)?.keys ?? [];
  if (template.kind === 'outputs') return Object.entries(template.fields).filter(([, field]) => field.kind !== 'unbound').map(([name]) => name);
  return Object.entries(template.slots).filter(([, slot]) => slot.kind !== 'unbound').map(([name]) => name);
}

/** The values of an answer template no replay can bind (recorded values nothing in the run explains). */
export function unboundAnswerValues(template: AnswerTemplate): string[] {
  const slots = template.kind === 'text' ? Object.values(template.slots) : Object.values(template.fields).flatMap((field) => (field.kind === 'text' ? Object.values(field.slots) : [field]));
  return slots.flatMap((slot) => (slot.kind === 'unbound' ? [slot.recorded] : []));
}

export interface ReplayAnswerOptions {
  readonly document: SkillDocument;
  /** Each executed step's result, as skills read it. */
  readonly results: readonly unknown[];
  /** The last step's output as dispatch gave it. */
  readonly lastOutput: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly task: string;
  /** Writes the answer when the template has values this replay cannot bind (one metered call); none: the results are the answer. */
  readonly answerModel?: UtilityModel;
  readonly signal?: AbortSignal;
}

/**
 * A replay's answer, of the same kind as the recorded run's: the answer template bound to this replay's
 * values (no model call); where a value cannot be bound, one small call on `answerModel` writes the
 * answer from the fresh results in the recorded answer's form, or, with no model, the answer is the last
 * result (readable, never wrapped in the model's boundary) and `note` says why. A skill saved before
 * answer templates answers with its last result the same way.
 */
export async function replayAnswer(options: ReplayAnswerOptions): Promise<ReplayAnswer> {
  const { document } = options;
  const lastResult = withJsonTextRead(options.results.at(-1));
  const resultOutputs = typeof lastResult === 'object' && lastResult !== null && !Array.isArray(lastResult) ? (lastResult as Record<string, unknown>) : { result: lastResult };
  if (document.answer === undefined) {
    return { answer: readableOutput(options.lastOutput), outputs: resultOutputs, source: 'results', note: `Skill "${document.name}" was saved without an answer template, so its answer is the last step's result; save its run again (forge skill save <run> --force) to give it one.` };
  }
  const bound = bindAnswerTemplate(document.answer, options.results, options.inputs);
  if (bound.answer !== undefined) return { answer: bound.answer, outputs: bound.outputs, source: 'template', note: null };
  const why = `the answer template has values this replay could not bind (${bound.unbound.join('; ')})`;
  if (options.answerModel === undefined) {
    return { answer: readableOutput(options.lastOutput), outputs: { ...bound.outputs }, source: 'results', note: `${why}, so the answer is the last step's result (--summarize has one model call write it from the results).` };
  }
  const recorded = document.recordings[0]?.answer ?? null;
  const results = capToolOutput(JSON.stringify(options.results.map((result) => withJsonTextRead(result)), null, 2), ANSWER_RESULTS_LIMIT).text;
  let answer: string;
  try {
    answer = await options.answerModel.complete({
      system: 'Write the answer to the task from the tool results only, in the form of the example answer (its wording and layout), with the values the results give now. Never copy a value from the example. Answer with the answer alone.',
      prompt: `Task: ${options.task}\n\n${recorded === null ? '' : `Example answer (from an earlier run; its values are out of date):\n${recorded}\n\n`}Values already known: ${JSON.stringify(bound.outputs)}\n\nTool results:\n${wrapUntrusted('results', results)}`,
      maxOutputTokens: ANSWER_MAX_OUTPUT_TOKENS,
      purpose: 'skill-answer',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    // The steps (writes included) ran: a failed answer call must not make the replay look failed.
    if (options.signal?.aborted === true) throw error;
    return { answer: readableOutput(options.lastOutput), outputs: { ...bound.outputs }, source: 'results', note: `${why} and the model could not write the answer (${describeError(error).message}), so the answer is the last step's result.` };
  }
  return { answer: answer.trim(), outputs: { ...bound.outputs }, source: 'model', note: `${why}; one model call wrote the answer from the results.` };
}
