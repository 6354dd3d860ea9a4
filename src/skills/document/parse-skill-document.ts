import type { z } from 'zod';
import { isSafeJsonPath } from '../json-path.js';
import { SkillFormatError } from '../skill-errors.js';
import { upgradeV0, upgradeV1, v0SkillSchema, v1SkillSchema } from './legacy-documents.js';
import { templateSlots } from './templates.js';
import { SKILL_FORMAT_VERSION, skillDocumentSchema, type AnswerSlot, type AnswerText, type ArgumentBinding, type SkillDocument, type SlotBinding } from './skill-document.js';

function describeIssue(issues: z.ZodError['issues']): { location: string; message: string } {
  const issue = issues[0]!;
  return { location: issue.path.length === 0 ? '(document)' : issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`)).join('').replace(/^\./, ''), message: issue.message };
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { location, message } = describeIssue(parsed.error.issues);
    throw new SkillFormatError(location, message);
  }
  return parsed.data;
}

/**
 * Reads a skill document of any known version and returns it in the current format. Throws
 * `SkillFormatError` naming the first bad field for malformed documents, and refuses documents from a
 * newer Forge instead of guessing at them. Every reference must hold: inputs are declared, selections
 * exist, values come from steps that run earlier, and no path reaches an object's prototype.
 */
export function parseSkillDocument(value: unknown): SkillDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SkillFormatError('(document)', 'expected a JSON object.');
  const version = (value as Record<string, unknown>)['version'];
  if (typeof version !== 'number' || !Number.isInteger(version)) throw new SkillFormatError('version', 'missing or not a whole number; every skill document carries its format version.');
  if (version > SKILL_FORMAT_VERSION) {
    throw new SkillFormatError('version', `format version ${version} is newer than this Forge reads (up to ${SKILL_FORMAT_VERSION}).`, 'Upgrade Forge to import this skill.');
  }
  let current: unknown = value;
  if (version === 0) current = upgradeV1(upgradeV0(parseWith(v0SkillSchema, value)));
  else if (version === 1) current = upgradeV1(parseWith(v1SkillSchema, value));
  const document = parseWith(skillDocumentSchema, current);
  assertReferencesHold(document);
  return document;
}

function slotsOf(binding: ArgumentBinding): SlotBinding[] {
  return binding.kind === 'template' ? Object.values(binding.slots) : [binding];
}

function assertReferencesHold(document: SkillDocument): void {
  const declared = new Set(Object.keys(document.variables_schema.properties));
  const selections = new Map(document.selections.map((selection) => [selection.name, selection]));
  const fail = (location: string, message: string): never => {
    throw new SkillFormatError(location, message);
  };
  const checkPath = (location: string, path: string) => {
    if (!isSafeJsonPath(path)) fail(location, `the path ${JSON.stringify(path)} is not a safe JSON path (unreadable, or naming __proto__, constructor or prototype).`);
  };
  const checkInput = (location: string, name: string) => {
    if (!declared.has(name)) fail(location, `uses the variable "${name}", which variables_schema does not declare.`);
  };
  const checkTemplate = (location: string, template: string, slots: Readonly<Record<string, unknown>>) => {
    const used = templateSlots(template);
    for (const name of Object.keys(slots)) if (!used.includes(name)) fail(location, `defines the slot "${name}", which the template does not use.`);
    for (const name of used) if (!Object.hasOwn(slots, name)) fail(location, `uses the slot "{{${name}}}", which has no binding.`);
  };
  for (const name of document.variables_schema.required) checkInput('variables_schema.required', name);

  document.selections.forEach((selection, index) => {
    const location = `selections[${index}]`;
    if (document.selections.findIndex((other) => other.name === selection.name) !== index) fail(location, `a second selection is named "${selection.name}".`);
    checkPath(location, selection.collection);
    checkPath(location, selection.field);
    for (const condition of selection.conditions) {
      checkPath(location, condition.field);
      if ('input' in condition.operand) {
        checkInput(location, condition.operand.input);
        if (condition.operator === 'in' && document.variables_schema.properties[condition.operand.input]?.type !== 'array') fail(location, `tests "in" against "${condition.operand.input}", which is not a list input.`);
      }
    }
  });

  document.steps.forEach((step, stepIndex) => {
    const earlier = (location: string, from: number) => {
      if (from >= stepIndex) fail(location, `takes a value from step ${from}, which does not run before it.`);
    };
    step.preconditions.forEach((precondition, index) => {
      earlier(`steps[${stepIndex}].preconditions[${index}]`, precondition.step);
      checkPath(`steps[${stepIndex}].preconditions[${index}]`, precondition.path);
    });
    step.arguments.forEach(({ path, binding }, argumentIndex) => {
      const location = `steps[${stepIndex}].arguments[${argumentIndex}]`;
      checkPath(location, path);
      for (const slot of slotsOf(binding)) {
        switch (slot.kind) {
          case 'input':
            checkInput(location, slot.name);
            break;
          case 'result':
          case 'passthrough':
            earlier(location, slot.step);
            checkPath(location, slot.path);
            break;
          case 'text-span':
            earlier(location, slot.step);
            break;
          case 'selected':
          case 'selected-list': {
            const selection = selections.get(slot.selection);
            if (selection === undefined) return fail(location, `uses the selection "${slot.selection}", which the document does not define.`);
            for (const from of selection.steps) earlier(location, from);
            checkPath(location, slot.field);
            if (slot.kind === 'selected-list' && selection.cardinality !== 'many') fail(location, `takes a list from the selection "${slot.selection}", which chooses one entry.`);
            break;
          }
          case 'constant':
            break;
        }
      }
      if (binding.kind === 'template') checkTemplate(location, binding.template, binding.slots);
    });
  });

  const checkAnswerSlot = (location: string, slot: AnswerSlot) => {
    if (slot.kind === 'input') checkInput(location, slot.name);
    if (slot.kind !== 'result') return;
    if (slot.step >= document.steps.length) fail(location, `takes a value from step ${slot.step}, which the skill does not have.`);
    checkPath(location, slot.path);
  };
  const checkAnswerText = (location: string, text: AnswerText) => {
    checkTemplate(location, text.template, text.slots);
    for (const slot of Object.values(text.slots)) checkAnswerSlot(location, slot);
  };
  const answer = document.answer;
  if (answer?.kind === 'text') checkAnswerText('answer', answer);
  if (answer?.kind === 'outputs') {
    for (const [name, field] of Object.entries(answer.fields)) {
      if (field.kind === 'text') checkAnswerText(`answer.fields.${name}`, field);
      else checkAnswerSlot(`answer.fields.${name}`, field);
    }
  }
}
