import { randomBytes } from 'node:crypto';
import type { ToolSpecification } from '../tools/index.js';
import { abstractAnswer } from './answer-template.js';
import type { ArgumentFlow, ResultReference, StepFlow } from './dataflow.js';
import { SKILL_FORMAT_VERSION, type ArgumentBinding, type Precondition, type SkillDocument, type SkillStep, type SlotBinding } from './document/skill-document.js';
import { formatJsonPath, valueAtPath, type JsonPath } from './json-path.js';
import { outputContractFrom } from './output-contract.js';
import { schemaHash } from './schema-hash.js';
import { SelectionBuilder } from './selection-builder.js';
import { SkillRecordingError } from './skill-errors.js';
import type { Trace } from './trace.js';
import { FREE_TEXT_KEYS } from './free-text-keys.js';
import { isGenericWord, wordsOf } from './generic-words.js';
import { isIdLike, isStateField, isUrl } from './value-shapes.js';
import { VariableRegistry } from './variable-registry.js';

export interface AbstractOptions {
  readonly name?: string;
  readonly description?: string;
  /** The tool specifications the skill will run against (their schema hashes are pinned, enums read). */
  readonly specification: (tool: string) => ToolSpecification | undefined;
  /** Arguments to keep as pinned constants (`steps[2].subject`): the owner says they never change. */
  readonly constants?: readonly string[];
  /** Leave URLs as recorded results, never variables (on by default). */
  readonly skipUrls?: boolean;
}

/** Strips generic words from both ends of a task span; what is left is what the task is about. */
function coreOf(text: string): { start: number; end: number } | undefined {
  const words = wordsOf(text);
  const first = words.findIndex((word) => !isGenericWord(word.text));
  if (first < 0) return undefined;
  const last = words.findLastIndex((word) => !isGenericWord(word.text));
  return { start: words[first]!.start, end: words[last]!.end };
}

function lastKey(path: JsonPath): string | undefined {
  return path.findLast((segment): segment is string => typeof segment === 'string');
}

function enumAt(schema: unknown, path: JsonPath): (string | number)[] | undefined {
  let current = schema as Record<string, unknown> | undefined;
  for (const segment of path) {
    if (current === undefined) return undefined;
    current = (typeof segment === 'number' ? current['items'] : (current['properties'] as Record<string, unknown> | undefined)?.[segment]) as Record<string, unknown> | undefined;
  }
  const values = current?.['enum'] ?? (current?.['items'] as Record<string, unknown> | undefined)?.['enum'];
  return Array.isArray(values) && values.every((value) => typeof value === 'string' || typeof value === 'number') ? (values as (string | number)[]) : undefined;
}

/** What one step's arguments become, plus the preconditions its `result` bindings carry. */
interface StepAbstraction {
  readonly arguments: SkillStep['arguments'];
  readonly preconditions: Precondition[];
}

class StepAbstractor {
  constructor(
    private readonly trace: Trace,
    private readonly flows: readonly StepFlow[],
    private readonly variables: VariableRegistry,
    private readonly selections: SelectionBuilder,
    private readonly options: AbstractOptions,
  ) {}

  private results(): unknown[] {
    return this.flows.map((flow) => this.trace.steps[flow.traceIndex]!.result);
  }

  abstract(position: number): StepAbstraction {
    const flow = this.flows[position]!;
    const preconditions: Precondition[] = [];
    const pinned = new Set(this.options.constants ?? []);
    const argumentsOfStep = flow.arguments.map((argument) => {
      const path = formatJsonPath(argument.path);
      if (pinned.has(`steps[${position}].${path}`)) return { path, binding: { kind: 'constant' as const, value: argument.value, pinned: true } };
      return { path, binding: this.bindingFor(argument, position, preconditions) };
    });
    return { arguments: argumentsOfStep, preconditions };
  }

  private bindingFor(argument: ArgumentFlow, position: number, preconditions: Precondition[]): ArgumentBinding {
    const flow = this.flows[position]!;
    const writes = flow.sideEffect === 'write';
    const { source, value } = argument;
    const key = lastKey(argument.path);
    const specification = this.options.specification(flow.tool);
    const origin = { kind: 'argument' as const, step: position, path: formatJsonPath(argument.path) };
    const enumValues = enumAt(specification?.inputSchema, argument.path);
    switch (source.kind) {
      case 'task': {
        if ((this.options.skipUrls ?? true) && isUrl(value)) return { kind: 'constant', value, pinned: false };
        if (source.whole || typeof value !== 'string') {
          const name = writes ? this.variables.role(value, key, { ...origin, from: 'request' }, enumValues) : this.variables.shared(value, key, { ...origin, from: 'request' }, enumValues);
          return { kind: 'input', name };
        }
        // Task words inside a longer value are only a variable where the model restates the request
        // (a search query); elsewhere (an email subject) they are wording.
        if (!FREE_TEXT_KEYS.has(key?.toLowerCase() ?? '')) return this.unbound(value, key, origin, writes, enumValues);
        return this.templateFromSpans(value, source.spans, key, origin, writes);
      }
      case 'result':
        return this.referenceBinding(source, writes ? preconditions : undefined);
      case 'result-list':
        return { kind: 'selected-list', selection: this.selections.many(source.elements, this.results()), field: this.selections.fieldOf(source.elements[0]!) };
      case 'derived': {
        const slots: Record<string, SlotBinding> = {};
        for (const part of source.parts) slots[part.slot] = this.referenceBinding(part, writes ? preconditions : undefined);
        return { kind: 'template', template: source.template, slots };
      }
      case 'result-text':
        return { kind: 'text-span', step: source.step, prefix: source.prefix, suffix: source.suffix, recorded: value };
      case 'model-text':
        return { kind: 'passthrough', step: source.step, path: formatJsonPath(source.path), recorded: value };
      case 'unbound':
        return this.unbound(value, key, origin, writes, enumValues);
    }
  }

  /**
   * A value nothing in the run explains. Sent to a tool that writes, or an id, or a list, it is an input
   * the caller supplies for every replay (one per role: two arguments that happened to be equal stay
   * two inputs); anything else a read step used is kept as recorded.
   */
  private unbound(value: unknown, key: string | undefined, origin: { kind: 'argument'; step: number; path: string }, writes: boolean, enumValues: (string | number)[] | undefined): ArgumentBinding {
    if (writes) return { kind: 'input', name: this.variables.role(value, key, { ...origin, from: 'call' }, enumValues) };
    if (isIdLike(value) || Array.isArray(value)) return { kind: 'input', name: this.variables.shared(value, key, { ...origin, from: 'call' }, enumValues) };
    return { kind: 'constant', value, pinned: false };
  }

  private templateFromSpans(text: string, spans: readonly { start: number; end: number; text: string }[], key: string | undefined, origin: { kind: 'argument'; step: number; path: string }, writes: boolean): ArgumentBinding {
    let template = '';
    let cursor = 0;
    const slots: Record<string, SlotBinding> = {};
    for (const span of spans) {
      const core = coreOf(span.text);
      if (core === undefined) continue;
      const start = span.start + core.start;
      const end = span.start + core.end;
      const piece = text.slice(start, end);
      const whole = start === 0 && end === text.length;
      const name = writes ? this.variables.role(piece, whole ? key : undefined, { ...origin, from: 'request' }) : this.variables.shared(piece, whole ? key : undefined, { ...origin, from: 'request' });
      slots[name] = { kind: 'input', name };
      template += `${text.slice(cursor, start)}{{${name}}}`;
      cursor = end;
    }
    template += text.slice(cursor);
    const only = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(template);
    if (only !== null) return { kind: 'input', name: only[1]! };
    return Object.keys(slots).length > 0 ? { kind: 'template', template, slots } : { kind: 'constant', value: text, pinned: false };
  }

  /** A fixed place of one result is a `result` binding; a collection or pooled steps are a selection. */
  private referenceBinding(reference: ResultReference, preconditions: Precondition[] | undefined): SlotBinding {
    const results = this.results();
    if (reference.siblings.length === 1 && !reference.match.pattern.includes('*')) {
      if (preconditions !== undefined) preconditions.push(...statesAround(results[reference.match.step], reference.match.step, reference.match.path, preconditions));
      return { kind: 'result', step: reference.match.step, path: formatJsonPath(reference.match.path) };
    }
    return { kind: 'selected', selection: this.selections.one(reference, results), field: this.selections.fieldOf(reference) };
  }
}

/** The states (`status`, booleans) beside a value in its record: what a write on that record relied on. */
function statesAround(result: unknown, step: number, path: JsonPath, existing: readonly Precondition[]): Precondition[] {
  const parentPath = path.slice(0, -1);
  const parent = parentPath.length === 0 ? result : valueAtPath(result, parentPath);
  if (typeof parent !== 'object' || parent === null || Array.isArray(parent)) return [];
  return Object.entries(parent)
    .filter(([key, value]) => isStateField(key, value))
    .map(([key, value]) => ({ step, path: formatJsonPath([...parentPath, key]), equals: value as string | boolean }))
    .filter((candidate) => !existing.some((other) => other.step === candidate.step && other.path === candidate.path));
}

function kebab(text: string): string {
  return text.toLowerCase().replace(/\{\{([a-z0-9_]+)\}\}/g, '$1').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').split('-').slice(0, 6).join('-');
}

/**
 * Turns a successful run's trace and its binding map into a skill, conservatively: values from the
 * request become `{{variables}}`; values from earlier results stay bound to those results (a choice
 * among entries becomes a selection with the conditions the recording shows); a value nothing
 * explains that a write sends is an input the caller must give (never a constant, unless pinned);
 * other values are recorded constants. The final answer becomes the answer template the same way (see
 * `abstractAnswer`). Failed steps are left out; the recording is kept for tests.
 */
export function abstractTrace(trace: Trace, flows: readonly StepFlow[], options: AbstractOptions): SkillDocument {
  if (!trace.completed) throw new SkillRecordingError(trace.runId, 'the run did not complete.', 'Save a run that finished with an answer (status completed).');
  if (flows.length === 0) throw new SkillRecordingError(trace.runId, 'it made no successful tool call, so there is nothing to replay.', 'Skills replay tool calls; save a run that used tools.');
  const variables = new VariableRegistry();
  const selections = new SelectionBuilder(trace.task, variables);
  const abstractor = new StepAbstractor(trace, flows, variables, selections, options);
  const known = new Set(flows.flatMap((flow, position) => flow.arguments.map((argument) => `steps[${position}].${formatJsonPath(argument.path)}`)));
  for (const constant of options.constants ?? []) {
    if (!known.has(constant)) throw new SkillRecordingError(trace.runId, `--constant ${constant} names no argument of the run.`, `Name an argument as steps[<index>].<path>; this run has ${[...known].join(', ')}.`);
  }
  const steps: SkillStep[] = flows.map((flow, position) => ({ tool: flow.tool, side_effect: flow.sideEffect, ...abstractor.abstract(position) }));
  const tools = [...new Set(flows.map((flow) => flow.tool))].map((tool) => {
    const specification = options.specification(tool);
    if (specification === undefined) throw new SkillRecordingError(trace.runId, `its tool "${tool}" is not registered here.`, 'Register the tool (e.g. connect its MCP server) and save again.');
    return { name: tool, schema_hash: schemaHash(specification.inputSchema) };
  });
  const template = variables.taskTemplate(trace.task);
  const recordedSteps = flows.map((flow) => trace.steps[flow.traceIndex]!);
  const answer = abstractAnswer(trace.answer, recordedSteps.map((step) => step.result), variables.recordedValues(), trace.task);
  return {
    format: 'forge-skill',
    version: SKILL_FORMAT_VERSION,
    id: randomBytes(6).toString('hex'),
    name: options.name ?? (kebab(template) || 'skill'),
    description: options.description ?? `Replays: ${template} (${flows.map((flow) => flow.tool).join(' → ')})`,
    task_template: template,
    variables_schema: variables.schema(),
    variable_origins: variables.origins(),
    selections: selections.all(),
    steps,
    tools,
    provenance: { run_id: trace.runId, model: trace.model, task: trace.task, recorded_at: new Date().toISOString() },
    output_contract: outputContractFrom(recordedSteps.map((step) => step.result)),
    ...(answer === undefined ? {} : { answer }),
    recordings: [{ run_id: trace.runId, task: trace.task, inputs: variables.recordedValues(), steps: recordedSteps.map((step) => ({ tool: step.tool, input: step.input, result: step.result })), answer: trace.answer }],
  };
}
