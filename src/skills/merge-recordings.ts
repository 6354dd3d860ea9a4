import type { ArgumentBinding, Recording, Selection, SkillDocument, SlotBinding, VariableSchema } from './document/skill-document.js';
import { fillTemplate, readTemplate, templateSlots } from './document/templates.js';
import { parseJsonPath, valueAtPath, valuesAtPattern, type JsonPath } from './json-path.js';
import { SkillRecordingError } from './skill-errors.js';

type Evaluation = { readonly exact: unknown } | { readonly oneOf: readonly unknown[] } | { readonly unknown: true };

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function sameText(left: unknown, right: unknown): boolean {
  return typeof left === 'string' && typeof right === 'string' ? left.toLowerCase() === right.toLowerCase() : sameJson(left, right);
}

function argumentValue(recording: Recording, step: number, path: string): unknown {
  return valueAtPath(recording.steps[step]?.input, parseJsonPath(path) as JsonPath);
}

function candidatesOf(selection: Selection, recording: Recording): unknown[] {
  const collection = parseJsonPath(selection.collection);
  return selection.steps.flatMap((step) => {
    const result = recording.steps[step]?.result;
    return collection.length === 0 ? [result] : valuesAtPattern(result, collection).map((entry) => entry.value);
  });
}

function fieldOf(entry: unknown, field: string): unknown {
  return field === '' ? entry : valueAtPath(entry, parseJsonPath(field) as JsonPath);
}

/** The value of each of a skill's inputs in a recording that was not abstracted with them, where it can be read. */
function inputsFor(skill: SkillDocument, recording: Recording): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const [name, origin] of Object.entries(skill.variable_origins)) {
    if (origin.kind === 'argument') {
      const binding = skill.steps[origin.step]?.arguments.find((argument) => argument.path === origin.path)?.binding;
      const value = argumentValue(recording, origin.step, origin.path);
      if (binding?.kind === 'input') inputs[name] = value;
      if (binding?.kind === 'template' && typeof value === 'string') {
        const slot = Object.entries(binding.slots).find(([, slotBinding]) => slotBinding.kind === 'input' && slotBinding.name === name)?.[0];
        const read = readTemplate(binding.template, value);
        if (slot !== undefined && read !== undefined) inputs[name] = read[slot];
      }
      continue;
    }
    const selection = skill.selections.find((candidate) => candidate.name === origin.selection);
    const use = skill.steps.flatMap((step, index) => step.arguments.map((argument) => ({ index, argument }))).find(({ argument }) => (argument.binding.kind === 'selected' || argument.binding.kind === 'selected-list') && argument.binding.selection === origin.selection);
    if (selection === undefined || use === undefined) continue;
    const chosen = argumentValue(recording, use.index, use.argument.path);
    const entries = candidatesOf(selection, recording);
    const pick = (value: unknown) => entries.find((entry) => sameJson(fieldOf(entry, selection.field), value));
    inputs[name] = Array.isArray(chosen) ? chosen.map((value) => fieldOf(pick(value), origin.field)) : fieldOf(pick(chosen), origin.field);
  }
  return inputs;
}

function candidatesSatisfying(selection: Selection, recording: Recording, inputs: Readonly<Record<string, unknown>>): unknown[] {
  return candidatesOf(selection, recording).filter((entry) =>
      selection.conditions.every((condition) => {
        const actual = fieldOf(entry, condition.field);
        const expected = 'literal' in condition.operand ? condition.operand.literal : inputs[condition.operand.input];
        return condition.operator === 'in' ? Array.isArray(expected) && expected.some((value) => sameText(actual, value)) : sameText(actual, expected);
      }),
  );
}

function evaluate(binding: SlotBinding, skill: SkillDocument, recording: Recording, inputs: Readonly<Record<string, unknown>>): Evaluation {
  switch (binding.kind) {
    case 'constant':
      return { exact: binding.value };
    case 'input':
      return Object.hasOwn(inputs, binding.name) && inputs[binding.name] !== undefined ? { exact: inputs[binding.name] } : { unknown: true };
    case 'result':
      return { exact: binding.path === '' ? recording.steps[binding.step]?.result : valueAtPath(recording.steps[binding.step]?.result, parseJsonPath(binding.path) as JsonPath) };
    case 'selected':
    case 'selected-list': {
      const selection = skill.selections.find((candidate) => candidate.name === binding.selection)!;
      return { oneOf: candidatesSatisfying(selection, recording, inputs).map((entry) => fieldOf(entry, binding.field)) };
    }
    case 'text-span':
    case 'passthrough':
      return { unknown: true };
  }
}

/** Whether a binding gives a recording's own value for that argument, with that recording's inputs. */
function explains(binding: ArgumentBinding, value: unknown, skill: SkillDocument, recording: Recording, inputs: Readonly<Record<string, unknown>>): boolean {
  if (binding.kind === 'template') {
    const filled: Record<string, unknown> = {};
    for (const [slot, slotBinding] of Object.entries(binding.slots)) {
      const evaluation = evaluate(slotBinding, skill, recording, inputs);
      if (!('exact' in evaluation)) return 'oneOf' in evaluation;
      filled[slot] = evaluation.exact;
    }
    return fillTemplate(binding.template, filled) === value;
  }
  if (binding.kind === 'text-span' || binding.kind === 'passthrough') return true;
  const evaluation = evaluate(binding, skill, recording, inputs);
  if ('unknown' in evaluation) return false;
  if ('exact' in evaluation) return sameJson(evaluation.exact, value);
  return Array.isArray(value) && binding.kind === 'selected-list' ? value.every((item) => evaluation.oneOf.some((candidate) => sameJson(candidate, item))) : evaluation.oneOf.some((candidate) => sameJson(candidate, value));
}

function schemaFor(values: readonly unknown[], description: string): VariableSchema {
  const first = values[0];
  const type: VariableSchema['type'] = Array.isArray(first) ? 'array' : typeof first === 'number' ? (values.every(Number.isInteger) ? 'integer' : 'number') : typeof first === 'boolean' ? 'boolean' : 'string';
  return { type, description, ...(Array.isArray(first) ? { items: { type: typeof first[0] === 'number' ? ('number' as const) : ('string' as const) } } : {}), examples: [...values] };
}

/**
 * A skill generalised from one more recording of the same template: `addition` (the new run,
 * abstracted on its own) must call the same tools in the same order. Each argument keeps its binding
 * when that binding gives every recording's own value (with each recording's inputs); an argument
 * whose values differ across recordings and that no binding explains becomes an input (one per role),
 * never a constant. The skill lists every recording it was generalised from.
 */
export function mergeRecording(skill: SkillDocument, addition: SkillDocument): SkillDocument {
  const tools = skill.steps.map((step) => step.tool);
  const added = addition.steps.map((step) => step.tool);
  if (!sameJson(tools, added)) {
    throw new SkillRecordingError(addition.provenance.run_id, `it called ${added.join(' → ')} where skill "${skill.name}" calls ${tools.join(' → ')}.`, `Save it as a skill of its own: forge skill save ${addition.provenance.run_id} --name <name>.`);
  }
  const newRecording: Recording = { ...addition.recordings[0]!, inputs: inputsFor(skill, addition.recordings[0]!) };
  const recordings = [...skill.recordings, newRecording].map((recording) => ({ ...recording, inputs: { ...recording.inputs } }));
  const properties: Record<string, VariableSchema> = { ...skill.variables_schema.properties };
  const origins = { ...skill.variable_origins };
  const steps = skill.steps.map((step, index) => ({
    ...step,
    arguments: step.arguments.map(({ path, binding }) => {
      const values = recordings.map((recording) => argumentValue(recording, index, path));
      if (recordings.every((recording, at) => explains(binding, values[at], skill, recording, recording.inputs))) return { path, binding };
      const key = path.split(/[.[\]]/).filter((part) => part !== '' && !/^\d+$/.test(part)).at(-1) ?? 'value';
      let name = key.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '') || 'value';
      for (let suffix = 2; Object.hasOwn(properties, name); suffix += 1) name = `${key.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '') || 'value'}_${suffix}`;
      properties[name] = schemaFor(values, `The ${key} step ${index} sends: it differs across the recordings (${values.map((value) => JSON.stringify(value)).join(', ')}), so every replay must be given it.`);
      origins[name] = { kind: 'argument', step: index, path, from: 'call' };
      recordings.forEach((recording, at) => (recording.inputs[name] = values[at]));
      return { path, binding: { kind: 'input' as const, name } };
    }),
  }));
  const used = new Set<string>([
    ...templateSlots(skill.task_template),
    ...steps.flatMap((step) => step.arguments.flatMap(({ binding }) => (binding.kind === 'template' ? Object.values(binding.slots) : [binding]).flatMap((slot) => (slot.kind === 'input' ? [slot.name] : [])))),
    ...skill.selections.flatMap((selection) => selection.conditions.flatMap((condition) => ('input' in condition.operand ? [condition.operand.input] : []))),
    ...answerInputNames(skill),
  ]);
  const kept = Object.keys(properties).filter((name) => used.has(name));
  return {
    ...skill,
    variables_schema: { ...skill.variables_schema, properties: Object.fromEntries(kept.map((name) => [name, properties[name]!])), required: kept },
    variable_origins: Object.fromEntries(kept.map((name) => [name, origins[name]!])),
    steps,
    recordings: recordings.map((recording) => ({ ...recording, inputs: Object.fromEntries(kept.map((name) => [name, recording.inputs[name]])) })),
  };
}

/** The inputs a skill's answer template states. */
function answerInputNames(skill: SkillDocument): string[] {
  const answer = skill.answer;
  if (answer === undefined) return [];
  const slots = answer.kind === 'text' ? Object.values(answer.slots) : Object.values(answer.fields).flatMap((field) => (field.kind === 'text' ? Object.values(field.slots) : [field]));
  return slots.flatMap((slot) => (slot.kind === 'input' ? [slot.name] : []));
}
