import { templateVariables, type SkillDocument } from './skill-document.js';
import { validateSkillInputs } from './skill-inputs.js';

/** Whether a stored skill covers a task, with the inputs read from the task, or why none does. */
export type SkillMatch =
  | { readonly matched: true; readonly skill: SkillDocument; readonly inputs: Record<string, string>; readonly reason: string }
  | { readonly matched: false; readonly reason: string };

function normalize(text: string): string {
  return text.toLowerCase().replace(/[\s\u00a0]+/g, ' ').replace(/^\s*(please\s+)?/, '').replace(/[\s.!?]+$/, '').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Reads a task against one skill's task template. Literal text must match exactly (case and spacing
 * aside); each `{{variable}}` captures a short value that is not a clause of its own: no sentence
 * punctuation, at most max(3, twice the recorded example's words) words. Returns the inputs, or
 * undefined when the task does not fit.
 */
export function readTaskInputs(document: SkillDocument, task: string): Record<string, string> | undefined {
  const template = normalize(document.task_template);
  const names = templateVariables(template);
  if (names.length === 0) return undefined;
  const pattern = template
    .split(/(\{\{[a-z][a-z0-9_]*\}\})/)
    .map((part) => {
      const name = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(part)?.[1];
      return name === undefined ? escapeRegExp(part) : `(?<${name}>.+?)`;
    })
    .join('');
  // A variable used twice must read the same text twice: its later uses become backreferences.
  const uniquePattern = names.reduce((current, name) => {
    const first = current.indexOf(`(?<${name}>.+?)`);
    return current.slice(0, first + 1) + current.slice(first + 1).replaceAll(`(?<${name}>.+?)`, `\\k<${name}>`);
  }, pattern);
  const match = new RegExp(`^${uniquePattern}$`, 'u').exec(normalize(task));
  if (match?.groups === undefined) return undefined;
  const inputs: Record<string, string> = {};
  for (const name of names) {
    const value = match.groups[name]?.trim() ?? '';
    const example = String(document.variables_schema.properties[name]?.examples[0] ?? '');
    const words = value.split(/\s+/).filter((word) => word !== '').length;
    if (value === '' || /[,;:.!?]/.test(value) || words > Math.max(3, 2 * example.split(/\s+/).length)) return undefined;
    inputs[name] = value;
  }
  return inputs;
}

/**
 * Finds the stored skill that covers a task. Only active skills whose task template reads the task
 * exactly (see `readTaskInputs`) and whose inputs then validate count; when two different skills fit
 * equally well, none is chosen. A wrong match costs more than a missed one, so every doubt falls back
 * to the full agent.
 */
export function matchSkill(task: string, skills: readonly SkillDocument[]): SkillMatch {
  const fits: { skill: SkillDocument; inputs: Record<string, string>; literal: number }[] = [];
  for (const skill of skills) {
    const inputs = readTaskInputs(skill, task);
    if (inputs === undefined) continue;
    try {
      validateSkillInputs(skill, inputs);
    } catch {
      continue;
    }
    fits.push({ skill, inputs, literal: skill.task_template.replace(/\{\{[a-z0-9_]+\}\}/g, '').length });
  }
  if (fits.length === 0) return { matched: false, reason: skills.length === 0 ? 'no skills are stored' : `none of ${skills.length} stored skills has a task template that reads this task` };
  fits.sort((left, right) => right.literal - left.literal);
  const [best, second] = fits;
  if (second !== undefined && second.literal === best!.literal) {
    return { matched: false, reason: `skills "${best!.skill.name}" and "${second.skill.name}" both fit; running the full agent instead of guessing` };
  }
  return { matched: true, skill: best!.skill, inputs: best!.inputs, reason: `the task reads as "${best!.skill.task_template}"` };
}
