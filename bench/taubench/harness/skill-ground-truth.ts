import { readTemplate, type ArgumentBinding, type Selection, type SkillDocument } from '../../../src/skills/index.js';
import type { RetailTask } from '../index.js';
import type { GroundTruthRun } from './ground-truth.js';

/** A value at a JSON path written as skills write them (`items[0].price`, `variants[*]`), own keys only. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) {
    const key = match[1] ?? match[2] ?? JSON.parse(`"${match[3]}"`);
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function entriesAt(value: unknown, collection: string): unknown[] {
  if (collection === '') return [value];
  const star = collection.lastIndexOf('[*]');
  const head = collection.slice(0, star);
  const inner = at(value, head);
  const entries = Array.isArray(inner) ? inner : typeof inner === 'object' && inner !== null ? Object.values(inner) : [];
  const rest = collection.slice(star + 3);
  return rest === '' ? entries : entries.flatMap((entry) => entriesAt(entry, rest.replace(/^\./, '')));
}

function same(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Which ground-truth action each step of a skill recorded: the recording keeps only the successful
 * calls, in order, so each step is the next action with its tool and arguments.
 */
export function skillStepActions(skill: SkillDocument, recordedTask: RetailTask): number[] {
  const actions: number[] = [];
  let cursor = 0;
  for (const step of skill.recordings[0]!.steps) {
    const tool = step.tool.replace(/^mcp__retail__/, '');
    while (cursor < recordedTask.actions.length && !(recordedTask.actions[cursor]!.name === tool && same(recordedTask.actions[cursor]!.kwargs, step.input))) cursor += 1;
    if (cursor >= recordedTask.actions.length) throw new Error(`step ${actions.length} (${step.tool}) is not among the ground-truth actions of task ${recordedTask.index}`);
    actions.push(cursor);
    cursor += 1;
  }
  return actions;
}

/** The ground-truth task's value for one argument of a skill step (a slot of a template, when named). */
export function groundTruthValue(skill: SkillDocument, stepActions: readonly number[], task: RetailTask, step: number, path: string, slot?: string): unknown {
  const action = task.actions[stepActions[step]!];
  if (action === undefined) return undefined;
  const value = at(action.kwargs, path);
  if (slot === undefined) return value;
  const binding = skill.steps[step]?.arguments.find((argument) => argument.path === path)?.binding;
  return binding?.kind === 'template' && typeof value === 'string' ? readTemplate(binding.template, value)?.[slot] : undefined;
}

/** The first argument (and template slot, if it is one) that takes a value from a selection. */
function firstUse(skill: SkillDocument, selection: string): { step: number; path: string; slot: string | undefined; field: string } | undefined {
  for (const [step, { arguments: args }] of skill.steps.entries()) {
    for (const argument of args) {
      const slots: [string | undefined, ArgumentBinding][] = argument.binding.kind === 'template' ? Object.entries(argument.binding.slots) : [[undefined, argument.binding]];
      for (const [slot, binding] of slots) {
        if ((binding.kind === 'selected' || binding.kind === 'selected-list') && binding.selection === selection) return { step, path: argument.path, slot, field: binding.field };
      }
    }
  }
  return undefined;
}

/** Equal as data, or as numbers when one side is a number written as text (`"622.12"` and `622.12`). */
function sameValue(left: unknown, right: unknown): boolean {
  if (same(left, right)) return true;
  return (typeof left === 'number' || typeof right === 'number') && String(left).trim() !== '' && Number(left) === Number(right);
}

function groundTruthEntries(selection: Selection, stepActions: readonly number[], truth: GroundTruthRun): unknown[] {
  return selection.steps.flatMap((step) => entriesAt(truth.results[stepActions[step]!], selection.collection));
}

/**
 * The inputs a perfect reader of the ground-truth task would give the skill: an argument's input is
 * the task's own value for that argument; an input a choice compares (a request-named field) is that
 * field of the entry the ground truth chose. Inputs it cannot tell are left out (the replay then says
 * which is missing).
 */
export function oracleInputs(skill: SkillDocument, stepActions: readonly number[], task: RetailTask, truth: GroundTruthRun): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const [name, origin] of Object.entries(skill.variable_origins)) {
    if (origin.kind === 'argument') {
      const binding = skill.steps[origin.step]?.arguments.find((argument) => argument.path === origin.path)?.binding;
      if (binding?.kind === 'input') inputs[name] = groundTruthValue(skill, stepActions, task, origin.step, origin.path);
      if (binding?.kind === 'template') {
        const slot = Object.entries(binding.slots).find(([, value]) => value.kind === 'input' && value.name === name)?.[0];
        if (slot !== undefined) inputs[name] = groundTruthValue(skill, stepActions, task, origin.step, origin.path, slot);
      }
      continue;
    }
    const selection = skill.selections.find((candidate) => candidate.name === origin.selection);
    const use = firstUse(skill, origin.selection);
    if (selection === undefined || use === undefined) continue;
    const chosen = groundTruthValue(skill, stepActions, task, use.step, use.path, use.slot);
    const entries = groundTruthEntries(selection, stepActions, truth);
    const field = (entry: unknown, path: string) => (path === '' ? entry : at(entry, path));
    const entryFor = (value: unknown) => entries.find((entry) => sameValue(field(entry, use.field), value));
    const value = Array.isArray(chosen) ? chosen.map((item) => field(entryFor(item), origin.field)) : field(entryFor(chosen), origin.field);
    if (value !== undefined && !(Array.isArray(value) && value.some((item) => item === undefined))) inputs[name] = value;
  }
  return inputs;
}

/**
 * What a rescue that knows the ground truth answers: the index of the candidate the task's own
 * action used (a list of indexes, in order, for a list), or "none" when the ground truth is not among
 * the candidates. It reads the rescue prompt as any model would: the argument named and the numbered
 * candidates.
 */
export function groundTruthRescueAnswer(prompt: string, skill: SkillDocument, stepActions: readonly number[], task: RetailTask): string {
  const needed = /needs its "steps\[(\d+)\]\.([^"]+?)(?: \{\{([a-z0-9_]+)\}\})?"/.exec(prompt);
  if (needed === null) return 'none';
  const truth = groundTruthValue(skill, stepActions, task, Number(needed[1]), needed[2]!, needed[3]);
  const candidates = prompt
    .slice(prompt.indexOf('Candidates:\n') + 'Candidates:\n'.length)
    .split('\n')
    .map((line) => /^(\d+)\. (.*?)(?: — .*)?$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ index: Number(match[1]), value: match[2]! }));
  const matches = (candidate: { value: string }, value: unknown) => candidate.value === String(value) || (typeof value === 'string' && Number(candidate.value) === Number(value) && value.trim() !== '');
  if (Array.isArray(truth)) {
    const used = new Set<number>();
    for (const value of truth) {
      const candidate = candidates.find((entry) => !used.has(entry.index) && matches(entry, value));
      if (candidate === undefined) return 'none';
      used.add(candidate.index);
    }
    return [...used].join(', ');
  }
  return String(candidates.find((candidate) => matches(candidate, truth))?.index ?? 'none');
}
