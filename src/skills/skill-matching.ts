import type { SkillDocument } from './document/skill-document.js';
import { templateSlots as templateVariables } from './document/templates.js';
import { isGenericWord, wordsOf } from './generic-words.js';
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

/** Templates with more placeholders than this are not read as patterns. */
const MAX_TEMPLATE_VARIABLES = 8;
/** Tasks longer than this are not read against templates (the similarity match still applies). */
const MAX_MATCHED_TASK_LENGTH = 4_000;

/**
 * Reads a task against one skill's task template. Literal text must match exactly (case and spacing
 * aside; a template without variables reads exactly its own task, with no inputs); each `{{variable}}` captures a short value that is not a clause of its own: no sentence
 * punctuation, at most max(3, twice the recorded example's words) words. Returns the inputs, or
 * undefined when the task does not fit.
 */
export function readTaskInputs(document: SkillDocument, task: string): Record<string, string> | undefined {
  const template = normalize(document.task_template);
  const names = templateVariables(template);
  // A template with no variables reads only its own task: the identical repeat, the cheapest replay there is.
  if (names.length === 0) return template !== '' && template === normalize(task) ? {} : undefined;
  // The pattern comes from a document (an imported skill, too): placeholders side by side, too many of
  // them or a very long task would let its lazy groups backtrack for a long time, so none is tried.
  if (names.length > MAX_TEMPLATE_VARIABLES || task.length > MAX_MATCHED_TASK_LENGTH || /\}\}\s*\{\{/.test(template)) return undefined;
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

/** How similar a task must be to a skill's recorded tasks (cosine of IDF-weighted content words), and by how much the best must lead. */
export const TASK_MATCH_THRESHOLD = 0.6;
export const TASK_MATCH_MARGIN = 0.15;

/** Which stored skill a free-text task is, with the inputs its template read when it reads exactly. */
export type TaskMatch =
  | { readonly matched: true; readonly skill: SkillDocument; readonly inputs?: Record<string, string>; readonly reason: string; readonly score: number }
  | { readonly matched: false; readonly reason: string };

function contentWords(text: string): string[] {
  return wordsOf(text)
    .map((word) => word.lower)
    .filter((word) => word.length > 2 && !isGenericWord(word) && !/\d/.test(word))
    .map((word) => (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

function vector(words: readonly string[], idf: ReadonlyMap<string, number>): Map<string, number> {
  const weights = new Map<string, number>();
  for (const word of words) weights.set(word, (weights.get(word) ?? 0) + (idf.get(word) ?? Math.log(2)));
  return weights;
}

function cosine(left: ReadonlyMap<string, number>, right: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [word, weight] of left) dot += weight * (right.get(word) ?? 0);
  const norm = (weights: ReadonlyMap<string, number>) => Math.sqrt([...weights.values()].reduce((sum, weight) => sum + weight * weight, 0));
  const denominator = norm(left) * norm(right);
  return denominator === 0 ? 0 : dot / denominator;
}

/**
 * Chooses the stored skill for a free-text task. A task its template reads exactly is that skill
 * (with the inputs the template read). Otherwise each skill is scored by how much the task says what
 * its recorded tasks said (cosine of content words, each weighted by how few skills use it), and one is
 * chosen only when it scores at least `TASK_MATCH_THRESHOLD` and leads the next by `TASK_MATCH_MARGIN`.
 * A wrong match costs more than a missed one (a missed one runs the full agent), so every doubt is a miss.
 */
export function matchSkillForTask(task: string, skills: readonly SkillDocument[]): TaskMatch {
  if (skills.length === 0) return { matched: false, reason: 'no skills are stored' };
  const exact = skills
    .map((skill) => ({ skill, inputs: readTaskInputs(skill, task), literal: skill.task_template.replace(/\{\{[a-z0-9_]+\}\}/g, '').length }))
    .filter((fit): fit is { skill: SkillDocument; inputs: Record<string, string>; literal: number } => fit.inputs !== undefined)
    .sort((left, right) => right.literal - left.literal);
  if (exact.length > 0 && (exact.length === 1 || exact[1]!.literal < exact[0]!.literal)) {
    return { matched: true, skill: exact[0]!.skill, inputs: exact[0]!.inputs, reason: `the task reads as "${exact[0]!.skill.task_template}"`, score: 1 };
  }
  if (exact.length > 1) return { matched: false, reason: `skills "${exact[0]!.skill.name}" and "${exact[1]!.skill.name}" both fit; running the full agent instead of guessing` };
  const recorded = skills.map((skill) => skill.recordings.map((recording) => contentWords(recording.task)));
  const frequency = new Map<string, number>();
  for (const tasks of recorded) for (const word of new Set(tasks.flat())) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const idf = new Map([...frequency].map(([word, count]) => [word, Math.log(1 + skills.length / count)]));
  const asked = vector(contentWords(task), idf);
  const scored = skills
    .map((skill, index) => ({ skill, score: Math.max(...recorded[index]!.map((words) => cosine(asked, vector(words, idf)))) }))
    .sort((left, right) => right.score - left.score);
  const [best, second] = scored;
  if (best!.score < TASK_MATCH_THRESHOLD) return { matched: false, reason: `no stored skill reads like this task (the closest, "${best!.skill.name}", scores ${best!.score.toFixed(2)} < ${TASK_MATCH_THRESHOLD})` };
  if (second !== undefined && best!.score - second.score < TASK_MATCH_MARGIN) {
    return { matched: false, reason: `skills "${best!.skill.name}" (${best!.score.toFixed(2)}) and "${second.skill.name}" (${second.score.toFixed(2)}) read alike for this task; running the full agent instead of guessing` };
  }
  return { matched: true, skill: best!.skill, reason: `the task reads like the recorded task of "${best!.skill.name}" (similarity ${best!.score.toFixed(2)})`, score: best!.score };
}
