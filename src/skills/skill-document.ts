import { z } from 'zod';
import { SkillFormatError } from './skill-errors.js';

/** The format version this Forge writes. Older versions are upgraded on load; newer ones are refused. */
export const SKILL_FORMAT_VERSION = 1;

const variableName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'variable names are lower_snake_case');

/**
 * Where one argument value of a step comes from at replay:
 * - `constant`: the recorded value, always.
 * - `variable`: the whole value is a user input (keeps its type).
 * - `template`: a string with `{{variable}}` placeholders filled from user inputs.
 * - `step-result`: taken from an earlier step's fresh result at `path`. With `collection` (the path with
 *   the chosen array index as `*`) the value is a choice among candidates, resolved cheapest-first;
 *   `key_field` names a sibling field that identified the recorded element (it equalled a variable).
 *   With `prefix`/`suffix` the value is a span of a text result, found between that context.
 * - `text`: text handed on unchanged from an earlier step's fresh result (`path` inside it, if any).
 */
export const argumentBindingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('constant'), value: z.unknown() }),
  z.object({ kind: z.literal('variable'), name: variableName }),
  z.object({ kind: z.literal('template'), template: z.string() }),
  z.object({
    kind: z.literal('step-result'),
    step: z.number().int().nonnegative(),
    path: z.string(),
    collection: z.string().nullable(),
    value_kind: z.enum(['url', 'value']),
    key_field: z.object({ field: z.string(), variable: variableName }).nullable(),
    prefix: z.string().nullable(),
    suffix: z.string().nullable(),
    recorded: z.unknown(),
  }),
  z.object({ kind: z.literal('text'), step: z.number().int().nonnegative(), path: z.string(), recorded: z.unknown() }),
]);
export type ArgumentBinding = z.infer<typeof argumentBindingSchema>;

export const skillStepSchema = z.object({
  tool: z.string().min(1),
  /** One binding per scalar argument, by JSON path inside the input (`query`, `headers.accept`). */
  arguments: z.array(z.object({ path: z.string().min(1), binding: argumentBindingSchema })),
});
export type SkillStep = z.infer<typeof skillStepSchema>;

export const variableSchemaSchema = z.object({
  type: z.enum(['string', 'number', 'integer', 'boolean']),
  description: z.string(),
  examples: z.array(z.unknown()).min(1),
});

/** A JSON Schema object (what zod's `toJSONSchema` and form builders understand). */
export const variablesSchemaSchema = z.object({
  type: z.literal('object'),
  properties: z.record(variableName, variableSchemaSchema),
  required: z.array(variableName),
  additionalProperties: z.literal(false),
});
export type VariablesSchema = z.infer<typeof variablesSchemaSchema>;

/** What every successful replay must produce. */
export const outputContractSchema = z.object({
  steps: z.array(
    z.object({
      type: z.enum(['object', 'array', 'string', 'number', 'boolean', 'null']),
      /** Top-level keys the result had when recorded. */
      keys: z.array(z.string()),
    }),
  ),
  /** The last step must return something that is not empty. */
  final_non_empty: z.boolean(),
});
export type OutputContract = z.infer<typeof outputContractSchema>;

export const skillDocumentSchema = z.object({
  format: z.literal('forge-skill'),
  version: z.literal(SKILL_FORMAT_VERSION),
  id: z.string().min(1),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'skill names are kebab-case'),
  description: z.string(),
  /** The recorded task with variables as `{{name}}`: what matching compares new tasks with. */
  task_template: z.string(),
  variables_schema: variablesSchemaSchema,
  steps: z.array(skillStepSchema).min(1),
  tools: z.array(z.object({ name: z.string(), schema_hash: z.string() })),
  provenance: z.object({ run_id: z.string(), model: z.string(), task: z.string(), recorded_at: z.string() }),
  output_contract: outputContractSchema,
  /** The recording itself: the inputs and each step's input and result. Owners see it; product views never do. */
  recording: z.object({
    inputs: z.record(z.string(), z.unknown()),
    steps: z.array(z.object({ tool: z.string(), input: z.unknown(), result: z.unknown() })),
  }),
});
export type SkillDocument = z.infer<typeof skillDocumentSchema>;

/**
 * Version 0: the first skill files (seed format): an `execution_trace` of `{tool, arguments, result}`
 * with `{{var}}` placeholders and a `variables_schema` of `{name: {type, description, example}}`.
 * Every argument is a constant or a template; nothing was bound to earlier results.
 */
const legacySkillSchema = z.object({
  version: z.literal(0),
  name: z.string().min(1),
  description: z.string().default(''),
  execution_trace: z.array(z.object({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()), result: z.unknown().optional() })).min(1),
  variables_schema: z.record(z.string(), z.object({ type: z.enum(['string', 'number', 'integer', 'boolean']).default('string'), description: z.string().default(''), example: z.unknown() })),
});

function upgradeLegacy(legacy: z.infer<typeof legacySkillSchema>): unknown {
  const names = Object.keys(legacy.variables_schema);
  return {
    format: 'forge-skill',
    version: SKILL_FORMAT_VERSION,
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
        binding: typeof value === 'string' && /\{\{\s*[a-z][a-z0-9_]*\s*\}\}/.test(value) ? { kind: 'template', template: value.replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/g, '{{$1}}') } : { kind: 'constant', value },
      })),
    })),
    tools: [],
    provenance: { run_id: 'unknown', model: 'unknown', task: legacy.description, recorded_at: '1970-01-01T00:00:00.000Z' },
    output_contract: { steps: legacy.execution_trace.map(() => ({ type: 'object', keys: [] })), final_non_empty: true },
    recording: { inputs: Object.fromEntries(names.map((name) => [name, legacy.variables_schema[name]!.example])), steps: [] },
  };
}

function describeIssue(issues: z.ZodError['issues']): { location: string; message: string } {
  const issue = issues[0]!;
  return { location: issue.path.length === 0 ? '(document)' : issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`)).join('').replace(/^\./, ''), message: issue.message };
}

/**
 * Reads a skill document of any known version and returns it in the current format. Throws
 * `SkillFormatError` naming the first bad field for malformed documents, and refuses documents from a
 * newer Forge instead of guessing at them. Every `{{variable}}` a step uses must be declared.
 */
export function parseSkillDocument(value: unknown): SkillDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SkillFormatError('(document)', 'expected a JSON object.');
  const version = (value as Record<string, unknown>)['version'];
  if (typeof version !== 'number' || !Number.isInteger(version)) throw new SkillFormatError('version', 'missing or not a whole number; every skill document carries its format version.');
  if (version > SKILL_FORMAT_VERSION) {
    throw new SkillFormatError('version', `format version ${version} is newer than this Forge reads (up to ${SKILL_FORMAT_VERSION}).`, 'Upgrade Forge to import this skill.');
  }
  let current: unknown = value;
  if (version === 0) {
    const legacy = legacySkillSchema.safeParse(value);
    if (!legacy.success) {
      const { location, message } = describeIssue(legacy.error.issues);
      throw new SkillFormatError(location, message);
    }
    current = upgradeLegacy(legacy.data);
  }
  const parsed = skillDocumentSchema.safeParse(current);
  if (!parsed.success) {
    const { location, message } = describeIssue(parsed.error.issues);
    throw new SkillFormatError(location, message);
  }
  assertVariablesDeclared(parsed.data);
  return parsed.data;
}

function assertVariablesDeclared(document: SkillDocument): void {
  const declared = new Set(Object.keys(document.variables_schema.properties));
  document.steps.forEach((step, stepIndex) => {
    step.arguments.forEach(({ binding }, argumentIndex) => {
      const used = binding.kind === 'variable' ? [binding.name] : binding.kind === 'template' ? templateVariables(binding.template) : [];
      for (const name of used) {
        if (!declared.has(name)) throw new SkillFormatError(`steps[${stepIndex}].arguments[${argumentIndex}]`, `uses the variable "${name}", which variables_schema does not declare.`);
      }
      if ((binding.kind === 'step-result' || binding.kind === 'text') && binding.step >= stepIndex) {
        throw new SkillFormatError(`steps[${stepIndex}].arguments[${argumentIndex}]`, `takes a value from step ${binding.step}, which does not run before it.`);
      }
    });
  });
}

/** The `{{names}}` a template uses, in order of first use. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(/\{\{([a-z][a-z0-9_]*)\}\}/g)].map((match) => match[1]!))];
}

/** Fills `{{name}}` placeholders. */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{([a-z][a-z0-9_]*)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
