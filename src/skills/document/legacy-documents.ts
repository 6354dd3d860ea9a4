import { z } from 'zod';
import { SKILL_FORMAT_VERSION, type ArgumentBinding, type Selection, type VariableOrigin } from './skill-document.js';
import { templateSlots } from './templates.js';

/**
 * Version 1: bindings as `variable | template | constant | step-result | text`, one recording, no side
 * effects, selections or preconditions. A `step-result` with a `collection` was a choice among a
 * collection's values (optionally keyed by a sibling field equal to a variable).
 */
const v1BindingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('constant'), value: z.unknown() }),
  z.object({ kind: z.literal('variable'), name: z.string() }),
  z.object({ kind: z.literal('template'), template: z.string() }),
  z.object({
    kind: z.literal('step-result'),
    step: z.number().int().nonnegative(),
    path: z.string(),
    collection: z.string().nullable(),
    value_kind: z.enum(['url', 'value']),
    key_field: z.object({ field: z.string(), variable: z.string() }).nullable(),
    prefix: z.string().nullable(),
    suffix: z.string().nullable(),
    recorded: z.unknown(),
  }),
  z.object({ kind: z.literal('text'), step: z.number().int().nonnegative(), path: z.string(), recorded: z.unknown() }),
]);
type V1Binding = z.infer<typeof v1BindingSchema>;

export const v1SkillSchema = z.object({
  format: z.literal('forge-skill'),
  version: z.literal(1),
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  task_template: z.string(),
  variables_schema: z.object({
    type: z.literal('object'),
    properties: z.record(z.string(), z.object({ type: z.enum(['string', 'number', 'integer', 'boolean']), description: z.string(), examples: z.array(z.unknown()).min(1) })),
    required: z.array(z.string()),
    additionalProperties: z.literal(false),
  }),
  steps: z.array(z.object({ tool: z.string().min(1), arguments: z.array(z.object({ path: z.string().min(1), binding: v1BindingSchema })) })).min(1),
  tools: z.array(z.object({ name: z.string(), schema_hash: z.string() })),
  provenance: z.object({ run_id: z.string(), model: z.string(), task: z.string(), recorded_at: z.string() }),
  output_contract: z.unknown(),
  recording: z.object({
    inputs: z.record(z.string(), z.unknown()),
    steps: z.array(z.object({ tool: z.string(), input: z.unknown(), result: z.unknown() })),
  }),
});
type V1Skill = z.infer<typeof v1SkillSchema>;

/**
 * Version 0: the first skill files (seed format): an `execution_trace` of `{tool, arguments, result}`
 * with `{{var}}` placeholders and a `variables_schema` of `{name: {type, description, example}}`.
 * Every argument is a constant or a template; nothing was bound to earlier results.
 */
export const v0SkillSchema = z.object({
  version: z.literal(0),
  name: z.string().min(1),
  description: z.string().default(''),
  execution_trace: z.array(z.object({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()), result: z.unknown().optional() })).min(1),
  variables_schema: z.record(z.string(), z.object({ type: z.enum(['string', 'number', 'integer', 'boolean']).default('string'), description: z.string().default(''), example: z.unknown() })),
});
type V0Skill = z.infer<typeof v0SkillSchema>;

/** A version 0 skill in version 1's terms (then upgraded like any version 1 skill). */
export function upgradeV0(legacy: V0Skill): V1Skill {
  const names = Object.keys(legacy.variables_schema);
  return {
    format: 'forge-skill',
    version: 1,
    id: `legacy-${legacy.name}`,
    name: legacy.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'legacy-skill',
    description: legacy.description,
    task_template: legacy.description,
    variables_schema: {
      type: 'object',
      properties: Object.fromEntries(
        names.map((name) => {
          const variable = legacy.variables_schema[name]!;
          return [name, { type: variable.type, description: variable.description, examples: [variable.example ?? ''] }];
        }),
      ),
      required: names,
      additionalProperties: false,
    },
    steps: legacy.execution_trace.map((step) => ({
      tool: step.tool,
      arguments: Object.entries(step.arguments).map(([path, value]) => ({
        path,
        binding:
          typeof value === 'string' && /\{\{\s*[a-z][a-z0-9_]*\s*\}\}/.test(value)
            ? { kind: 'template' as const, template: value.replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/g, '{{$1}}') }
            : { kind: 'constant' as const, value },
      })),
    })),
    tools: [],
    provenance: { run_id: 'unknown', model: 'unknown', task: legacy.description, recorded_at: '1970-01-01T00:00:00.000Z' },
    output_contract: { steps: legacy.execution_trace.map(() => ({ type: 'object', keys: [] })), final_non_empty: true },
    recording: { inputs: Object.fromEntries(names.map((name) => [name, legacy.variables_schema[name]!.example])), steps: [] },
  };
}

/** `results[*].url` → the collection `results[*]` and the field `url` inside each entry. */
function splitCollection(collection: string): { collection: string; field: string } {
  const at = collection.lastIndexOf('[*]');
  const rest = collection.slice(at + 3);
  return { collection: collection.slice(0, at + 3), field: rest.startsWith('.') ? rest.slice(1) : rest };
}

/**
 * A version 1 skill in the current format. Its bindings keep their meaning: a choice among a
 * collection becomes a one-entry selection (its key field a condition on the input), a fixed result
 * path a `result` binding, a text span a `text-span`. Constants are not pinned, so a version 1 skill
 * that sends a constant to a tool that writes refuses until its owner pins it. Side effects were not
 * recorded, so they are `unknown` and the live tools decide.
 */
export function upgradeV1(skill: V1Skill): unknown {
  const selections: Selection[] = [];
  const origins: Record<string, VariableOrigin> = {};
  const upgrade = (binding: V1Binding, step: number, path: string): ArgumentBinding => {
    switch (binding.kind) {
      case 'constant':
        return { kind: 'constant', value: binding.value, pinned: false };
      case 'variable':
        origins[binding.name] ??= { kind: 'argument', step, path, from: 'request' };
        return { kind: 'input', name: binding.name };
      case 'template': {
        const slots = templateSlots(binding.template);
        for (const name of slots) origins[name] ??= { kind: 'argument', step, path, from: 'request' };
        return { kind: 'template', template: binding.template, slots: Object.fromEntries(slots.map((name) => [name, { kind: 'input', name }])) };
      }
      case 'text':
        return { kind: 'passthrough', step: binding.step, path: binding.path, recorded: binding.recorded };
      case 'step-result': {
        if (binding.prefix !== null || binding.suffix !== null) return { kind: 'text-span', step: binding.step, prefix: binding.prefix ?? '', suffix: binding.suffix ?? '', recorded: binding.recorded };
        if (binding.collection === null) return { kind: 'result', step: binding.step, path: binding.path };
        const name = `choice_${selections.length + 1}`;
        selections.push({
          name,
          cardinality: 'one',
          steps: [binding.step],
          ...splitCollection(binding.collection),
          scoring: binding.value_kind === 'url' ? 'url' : 'none',
          conditions: binding.key_field === null ? [] : [{ field: binding.key_field.field, operator: 'equals', operand: { input: binding.key_field.variable } }],
          recorded: [binding.recorded],
        });
        return { kind: 'selected', selection: name, field: splitCollection(binding.collection).field };
      }
    }
  };
  const steps = skill.steps.map((step, index) => ({
    tool: step.tool,
    side_effect: 'unknown' as const,
    arguments: step.arguments.map(({ path, binding }) => ({ path, binding: upgrade(binding, index, path) })),
    preconditions: [],
  }));
  return {
    format: 'forge-skill',
    version: SKILL_FORMAT_VERSION,
    id: skill.id,
    name: skill.name,
    description: skill.description,
    task_template: skill.task_template,
    variables_schema: skill.variables_schema,
    variable_origins: origins,
    selections,
    steps,
    tools: skill.tools,
    provenance: skill.provenance,
    output_contract: skill.output_contract,
    recordings: [{ run_id: skill.provenance.run_id, task: skill.provenance.task, inputs: skill.recording.inputs, steps: skill.recording.steps }],
  };
}
