import { z } from 'zod';

/** The format version this Forge writes. Older versions are upgraded on load; newer ones are refused. */
export const SKILL_FORMAT_VERSION = 2;

export const variableNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'variable and selection names are lower_snake_case')
  .refine((name) => name !== 'constructor' && name !== 'prototype', 'that name reaches an object\'s prototype; pick another');

/**
 * A location inside a JSON value, as text: `order_id`, `items[2].price`, `variants[*].item_id`.
 * `[*]` stands for every entry of a collection (an array, or an object keyed by ids). Segments that
 * would reach an object's prototype are refused wherever a document is read.
 */
export const jsonPathTextSchema = z.string();

/**
 * A value a skill reads from this replay's fresh results: the scalar at `path` of step `step`'s
 * result (`''` is the whole result, e.g. the plain-string id a lookup returned).
 */
const resultBindingSchema = z.object({ kind: z.literal('result'), step: z.number().int().nonnegative(), path: jsonPathTextSchema });

/**
 * Where one argument value of a step comes from at replay:
 * - `constant`: the recorded value. Only `pinned` constants (the owner said so: `--constant`) may be
 *   sent to a tool that writes; any other constant in a write makes the replay refuse before the write.
 * - `input`: the whole value is one of the caller's inputs (keeps its type, lists included).
 * - `template`: text with `{{slot}}` placeholders, each filled from its own binding (an input, or a
 *   value of a fresh result: a derived value such as `{{new_price}} - {{old_price}}`).
 * - `result`: a scalar at a fixed place of an earlier step's fresh result.
 * - `selected`: a field of the one entry a selection chose; `selected-list`: that field of every entry
 *   a many-selection chose, in order, so a list's length follows the data.
 * - `text-span`: the span of an earlier text result found between the recorded `prefix` and `suffix`.
 * - `passthrough`: text handed on unchanged from an earlier step's result (`path` inside it, if any).
 */
const slotBindingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('constant'), value: z.unknown(), pinned: z.boolean() }),
  z.object({ kind: z.literal('input'), name: variableNameSchema }),
  resultBindingSchema,
  z.object({ kind: z.literal('selected'), selection: variableNameSchema, field: jsonPathTextSchema }),
  z.object({ kind: z.literal('selected-list'), selection: variableNameSchema, field: jsonPathTextSchema }),
  z.object({ kind: z.literal('text-span'), step: z.number().int().nonnegative(), prefix: z.string(), suffix: z.string(), recorded: z.unknown() }),
  z.object({ kind: z.literal('passthrough'), step: z.number().int().nonnegative(), path: jsonPathTextSchema, recorded: z.unknown() }),
]);
export type SlotBinding = z.infer<typeof slotBindingSchema>;

export const argumentBindingSchema = z.union([
  slotBindingSchema,
  z.object({ kind: z.literal('template'), template: z.string(), slots: z.record(variableNameSchema, slotBindingSchema) }),
]);
export type ArgumentBinding = z.infer<typeof argumentBindingSchema>;

/** A fixed value a condition compares with, or one of the caller's inputs. */
const operandSchema = z.union([z.object({ input: variableNameSchema }), z.object({ literal: z.union([z.string(), z.number(), z.boolean(), z.null()]) })]);

/**
 * A condition on a candidate entry: the value at `field` (inside the entry) equals the operand, or (for
 * a list input) is one of its values. Literal conditions are states the recording observed (an order's
 * `status`, a variant's `available`); input conditions tie the choice to what the request named.
 */
export const conditionSchema = z.object({ field: jsonPathTextSchema, operator: z.enum(['equals', 'in']), operand: operandSchema });
export type Condition = z.infer<typeof conditionSchema>;

/**
 * A choice among the entries a fresh result offers. Candidates are the entries at `collection` (`[*]`
 * marks the collection; `''` makes each result itself one entry) of every step in `steps` (steps of
 * the same tool, whose results are pooled). Entries that fail a condition are dropped; what is left
 * decides: one entry (or one distinct value) is chosen without a model, several go to the rescue,
 * which sees each candidate's fields and answers only with indexes. `many` chooses a list of entries.
 * `recorded` is what the recording chose (each entry's compact fields), shown to the rescue.
 */
export const selectionSchema = z.object({
  name: variableNameSchema,
  cardinality: z.enum(['one', 'many']),
  steps: z.array(z.number().int().nonnegative()).min(1),
  collection: jsonPathTextSchema,
  /** The field whose value the arguments take (`url`, `item_id`; `''` for scalar entries). */
  field: jsonPathTextSchema,
  /** `url`: candidates are ranked by the URL scorer before a rescue is considered. */
  scoring: z.enum(['url', 'none']),
  conditions: z.array(conditionSchema),
  recorded: z.array(z.unknown()),
});
export type Selection = z.infer<typeof selectionSchema>;

/** A state the recording observed at a fixed place of an earlier result, checked again before a write. */
export const preconditionSchema = z.object({ step: z.number().int().nonnegative(), path: jsonPathTextSchema, equals: z.union([z.string(), z.number(), z.boolean(), z.null()]) });
export type Precondition = z.infer<typeof preconditionSchema>;

export const skillStepSchema = z.object({
  tool: z.string().min(1),
  /**
   * What the recorded call could do: a `write` step runs only when every argument is proven for this
   * replay. `unknown` (a skill from before side effects were recorded) is judged by the live tool.
   */
  side_effect: z.enum(['read', 'write', 'unknown']),
  /** One binding per argument, by JSON path inside the input (`query`, `headers.accept`, `item_ids`). */
  arguments: z.array(z.object({ path: jsonPathTextSchema.min(1), binding: argumentBindingSchema })),
  preconditions: z.array(preconditionSchema),
});
export type SkillStep = z.infer<typeof skillStepSchema>;

export const variableSchemaSchema = z.object({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array']),
  description: z.string(),
  /** For `array` variables: the type of each item. */
  items: z.object({ type: z.enum(['string', 'number', 'integer']) }).optional(),
  /** For variables a tool schema restricts: the values it allows. */
  enum: z.array(z.union([z.string(), z.number()])).min(1).optional(),
  examples: z.array(z.unknown()).min(1),
});
export type VariableSchema = z.infer<typeof variableSchemaSchema>;

/** A JSON Schema object (what zod's `toJSONSchema` and form builders understand). */
export const variablesSchemaSchema = z.object({
  type: z.literal('object'),
  properties: z.record(variableNameSchema, variableSchemaSchema),
  required: z.array(variableNameSchema),
  additionalProperties: z.literal(false),
});
export type VariablesSchema = z.infer<typeof variablesSchemaSchema>;

/**
 * Where an input was learned: an argument of a recorded step (`from: request` when the request said
 * it, `call` when only the call had it), or a field of the entries a selection's condition tests.
 */
export const variableOriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('argument'), step: z.number().int().nonnegative(), path: jsonPathTextSchema, from: z.enum(['request', 'call']) }),
  z.object({ kind: z.literal('condition'), selection: variableNameSchema, field: jsonPathTextSchema }),
]);
export type VariableOrigin = z.infer<typeof variableOriginSchema>;

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

/**
 * Where one value of a replay's answer comes from: one of the caller's inputs; the value at `path` of a
 * step's fresh result, where JSON held as text (an HTTP response's body) reads as JSON (`body.status`),
 * a number written with `decimals` places when the recorded answer wrote it so; or `unbound`: a value of
 * the recorded answer that nothing in the run explains (the model counted, computed or summarised it),
 * which a replay cannot state by itself.
 */
export const answerSlotSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('input'), name: variableNameSchema }),
  z.object({ kind: z.literal('result'), step: z.number().int().nonnegative(), path: jsonPathTextSchema, decimals: z.number().int().min(0).max(10).optional() }),
  z.object({ kind: z.literal('unbound'), recorded: z.string() }),
]);
export type AnswerSlot = z.infer<typeof answerSlotSchema>;

/** Text with `{{slot}}` placeholders, each filled from its own slot: the recorded answer's wording with its values abstracted. */
const answerTextSchema = z.object({ kind: z.literal('text'), template: z.string(), slots: z.record(variableNameSchema, answerSlotSchema) });
export type AnswerText = z.infer<typeof answerTextSchema>;

/** A field name of an agent's outputs (any JSON key but those reaching an object's prototype). */
const outputNameSchema = z.string().min(1).max(200).refine((name) => !['__proto__', 'constructor', 'prototype'].includes(name), "that name reaches an object's prototype");

/**
 * What a replay answers, abstracted from the recording's final answer at save time like the arguments
 * are: `text`, the answer's wording with its values as slots (`Order {{order_id}} is {{status}}.`);
 * `outputs`, for an agent that answered with structured outputs, each output field as one slot (a value
 * of its own type) or, for text, a template of its own.
 */
export const answerTemplateSchema = z.discriminatedUnion('kind', [
  answerTextSchema,
  z.object({ kind: z.literal('outputs'), fields: z.record(outputNameSchema, z.union([answerSlotSchema, answerTextSchema])) }),
]);
export type AnswerTemplate = z.infer<typeof answerTemplateSchema>;

/** One recorded run a skill was generalised from: its inputs, each kept step's input and result, and its final answer. */
export const recordingSchema = z.object({
  run_id: z.string(),
  task: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  steps: z.array(z.object({ tool: z.string(), input: z.unknown(), result: z.unknown() })),
  /** The run's final answer (absent in skills saved before answers were recorded). */
  answer: z.string().nullable().optional(),
});
export type Recording = z.infer<typeof recordingSchema>;

export const skillDocumentSchema = z.object({
  format: z.literal('forge-skill'),
  version: z.literal(SKILL_FORMAT_VERSION),
  id: z.string().min(1),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'skill names are kebab-case'),
  description: z.string(),
  /** The recorded task with variables as `{{name}}`: what matching compares new tasks with. */
  task_template: z.string(),
  variables_schema: variablesSchemaSchema,
  variable_origins: z.record(variableNameSchema, variableOriginSchema),
  selections: z.array(selectionSchema),
  steps: z.array(skillStepSchema).min(1),
  tools: z.array(z.object({ name: z.string(), schema_hash: z.string() })),
  provenance: z.object({ run_id: z.string(), model: z.string(), task: z.string(), recorded_at: z.string() }),
  output_contract: outputContractSchema,
  /**
   * What a replay answers, abstracted from the first recording's final answer. Absent in skills saved
   * before answer templates (and when the recording had no answer): such a replay returns its results.
   */
  answer: answerTemplateSchema.optional(),
  /** The recordings it was generalised from, first one first. Owners see them; product views never do. */
  recordings: z.array(recordingSchema).min(1),
});
export type SkillDocument = z.infer<typeof skillDocumentSchema>;
