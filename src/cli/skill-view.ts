import type { SkillVersionRecord } from '../core/index.js';
import type { ArgumentBinding, Condition, SkillDocument, SlotBinding } from '../skills/index.js';
import { formatQuantity } from './event-line/index.js';

function describeSlot(binding: SlotBinding): string {
  switch (binding.kind) {
    case 'constant':
      return `${binding.pinned ? 'pinned constant' : 'constant'} ${JSON.stringify(binding.value)}`;
    case 'input':
      return `input {{${binding.name}}}`;
    case 'result':
      return `step ${binding.step} result ${binding.path || '(whole result)'}`;
    case 'selected':
      return `${binding.field || 'the value'} of the chosen ${binding.selection}`;
    case 'selected-list':
      return `${binding.field || 'the value'} of each chosen ${binding.selection} (a list that follows the data)`;
    case 'text-span':
      return `text of step ${binding.step} after ${JSON.stringify(binding.prefix)}`;
    case 'passthrough':
      return `text handed on from step ${binding.step}${binding.path === '' ? '' : ` (${binding.path})`}`;
  }
}

/** One line saying where an argument's value comes from at replay. */
export function describeBinding(binding: ArgumentBinding): string {
  if (binding.kind !== 'template') return describeSlot(binding);
  return `template ${JSON.stringify(binding.template)} with ${Object.entries(binding.slots).map(([slot, value]) => `{{${slot}}} ← ${describeSlot(value)}`).join(', ')}`;
}

function describeCondition(condition: Condition): string {
  const operand = 'literal' in condition.operand ? JSON.stringify(condition.operand.literal) : `{{${condition.operand.input}}}`;
  return `${condition.field} ${condition.operator === 'in' ? 'in' : '='} ${operand}`;
}

/** `forge skill show`: inputs, selections, steps with where each argument comes from, what it writes, and its recordings. */
export function skillText(document: SkillDocument, details: { status: string; staleReason: string | null; version: number; currentVersion: number; dependent: readonly string[]; writeConstants: readonly { name: string; value: unknown }[] }): string {
  const variables = Object.entries(document.variables_schema.properties)
    .map(([name, variable]) => {
      const origin = document.variable_origins[name];
      const from = origin === undefined ? '' : origin.kind === 'condition' ? ` (chooses ${origin.selection} by ${origin.field})` : origin.from === 'request' ? ' (from the request)' : ` (step ${origin.step} ${origin.path}: the request did not say it)`;
      const type = variable.type === 'array' ? `list of ${variable.items?.type ?? 'string'}` : variable.type;
      return `  ${name}  ${type}${document.variables_schema.required.includes(name) ? ', required' : ''}${variable.enum === undefined ? '' : `, one of ${variable.enum.map((value) => JSON.stringify(value)).join(' | ')}`}  e.g. ${JSON.stringify(variable.examples[0])}${from}`;
    })
    .join('\n');
  const selections = document.selections
    .map((selection) => `  ${selection.name}: ${selection.cardinality === 'many' ? 'entries' : 'one entry'} of step ${selection.steps.join('/')} ${selection.collection || '(results)'}${selection.conditions.length === 0 ? ' (no condition: a rescue chooses when several remain)' : ` where ${selection.conditions.map(describeCondition).join(' and ')}`}${selection.scoring === 'url' ? ' (URL scoring)' : ''}`)
    .join('\n');
  const steps = document.steps
    .map((step, index) => {
      const header = `  ${index}. ${step.tool}${step.side_effect === 'write' ? '  [writes]' : step.side_effect === 'unknown' ? '  [side effect decided by the tool]' : ''}`;
      const preconditions = step.preconditions.map((precondition) => `       requires step ${precondition.step} ${precondition.path} = ${JSON.stringify(precondition.equals)}`);
      return [header, ...step.arguments.map(({ path, binding }) => `       ${path} ← ${describeBinding(binding)}`), ...preconditions].join('\n');
    })
    .join('\n');
  const recordings = document.recordings.map((recording) => `  run ${recording.run_id}: ${recording.task.length > 100 ? `${recording.task.slice(0, 99)}…` : recording.task}`).join('\n');
  const warning =
    details.writeConstants.length === 0
      ? ''
      : `\nwrite constants (a replay refuses until each is pinned or given): ${details.writeConstants.map((constant) => `${constant.name} = ${JSON.stringify(constant.value)}`).join(', ')}\n  pin: forge skill edit ${document.name} ${details.writeConstants.map((constant) => `--constant ${constant.name}`).join(' ')}\n`;
  return `${document.name}@${details.version}  (${details.status}${details.staleReason === null ? '' : `: ${details.staleReason}`}${details.version === details.currentVersion ? '' : `; current is version ${details.currentVersion}`})
${document.description}

task template: ${document.task_template}

inputs:
${variables || '  (none)'}
${selections === '' ? '' : `\nchoices:\n${selections}\n`}
steps:
${steps}

resolved at replay: ${details.dependent.join(', ') || '(nothing: replays deterministically)'}
generalised from ${formatQuantity(document.recordings.length, 'recording')}:
${recordings}
${warning}`;
}

/** `forge skill versions`: one line per version with its lineage. */
export function versionsText(name: string, versions: readonly SkillVersionRecord[], current: number): string {
  return versions.map((version) => `${name}@${version.version}${version.version === current ? '  (current)' : ''}  ${version.createdAt}  ${version.note}${version.parentVersion === null ? '' : `  ← from @${version.parentVersion}`}\n`).join('');
}
