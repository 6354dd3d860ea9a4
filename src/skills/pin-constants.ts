import { ConfigurationError } from '../core/index.js';
import type { ArgumentBinding, SkillDocument } from './document/skill-document.js';
import { parseJsonPath, valueAtPath, type JsonPath } from './json-path.js';
import { dependentValueName } from './skill-inputs.js';

function usesInput(binding: ArgumentBinding, name: string): boolean {
  const slots = binding.kind === 'template' ? Object.values(binding.slots) : [binding];
  return slots.some((slot) => slot.kind === 'input' && slot.name === name);
}

/**
 * The skill with these arguments (`steps[2].subject`) pinned as constants: the owner says they never
 * change, so the write gate lets them through. A constant becomes pinned; an input becomes the constant
 * the first recording sent (and the input goes when nothing else uses it). Values bound to results
 * cannot be pinned: they are resolved for each replay, which is what makes them safe.
 */
export function pinConstants(document: SkillDocument, names: readonly string[]): SkillDocument {
  const known = document.steps.flatMap((step, index) => step.arguments.map(({ path }) => dependentValueName(index, path)));
  const steps = document.steps.map((step, index) => ({
    ...step,
    arguments: step.arguments.map(({ path, binding }) => {
      if (!names.includes(dependentValueName(index, path))) return { path, binding };
      if (binding.kind === 'constant') return { path, binding: { ...binding, pinned: true } };
      if (binding.kind === 'input') {
        const recorded = valueAtPath(document.recordings[0]!.steps[index]?.input, parseJsonPath(path) as JsonPath);
        return { path, binding: { kind: 'constant' as const, value: recorded ?? document.recordings[0]!.inputs[binding.name], pinned: true } };
      }
      throw new ConfigurationError('--constant', `${dependentValueName(index, path)} is resolved from ${binding.kind === 'template' ? 'a template' : 'fresh results'} at every replay, so it cannot be pinned.`, 'Pin only constants and inputs (see `forge skill show`).');
    }),
  }));
  for (const name of names) {
    if (!known.includes(name)) throw new ConfigurationError('--constant', `${name} names no argument of skill "${document.name}".`, `Name an argument as steps[<index>].<path>: ${known.join(', ')}.`);
  }
  const stillUsed = (variable: string) => steps.some((step) => step.arguments.some(({ binding }) => usesInput(binding, variable))) || document.selections.some((selection) => selection.conditions.some((condition) => 'input' in condition.operand && condition.operand.input === variable));
  // An input no step uses any more goes; where the task template named it, the recorded value is written back.
  const dropped = Object.keys(document.variables_schema.properties).filter((variable) => !stillUsed(variable));
  const keep = (variable: string) => !dropped.includes(variable);
  const recordedInputs = document.recordings[0]!.inputs;
  return {
    ...document,
    task_template: dropped.reduce((template, variable) => template.replaceAll(`{{${variable}}}`, String(recordedInputs[variable] ?? '')), document.task_template),
    steps,
    variables_schema: {
      ...document.variables_schema,
      properties: Object.fromEntries(Object.entries(document.variables_schema.properties).filter(([variable]) => keep(variable))),
      required: document.variables_schema.required.filter(keep),
    },
    variable_origins: Object.fromEntries(Object.entries(document.variable_origins).filter(([variable]) => keep(variable))),
    recordings: document.recordings.map((recording) => ({ ...recording, inputs: Object.fromEntries(Object.entries(recording.inputs).filter(([variable]) => keep(variable))) })),
  };
}
