import { randomBytes } from 'node:crypto';
import type { ToolSpecification } from '../tools/index.js';
import type { ArgumentFlow, StepFlow } from './dataflow.js';
import { isUrl } from './dataflow.js';
import { formatJsonPath, valueAtPath } from './json-path.js';
import { isGenericWord, wordsOf } from './generic-words.js';
import { outputContractFrom } from './output-contract.js';
import { schemaHash } from './schema-hash.js';
import { SKILL_FORMAT_VERSION, type ArgumentBinding, type SkillDocument, type SkillStep } from './skill-document.js';
import { SkillRecordingError } from './skill-errors.js';
import type { Trace } from './trace.js';

export interface AbstractOptions {
  readonly name?: string;
  readonly description?: string;
  /** The tool specifications the skill will run against (their schema hashes are pinned). */
  readonly specification: (tool: string) => ToolSpecification | undefined;
  /** Leave URLs as recorded constants or results, never variables (on by default). */
  readonly skipUrls?: boolean;
}

/** Argument keys that name a free-text field rather than what the text is about. */
const FREE_TEXT_KEYS = new Set(['query', 'q', 'input', 'text', 'prompt', 'search', 'term', 'terms', 'value', 'message', 'content', 'keywords']);

interface Variable {
  readonly name: string;
  readonly value: string | number;
  readonly description: string;
}

class VariableNames {
  readonly variables: Variable[] = [];

  /** The variable for a recorded value, created on first sight, shared by every argument that uses it. */
  nameFor(value: string | number, argumentKey: string | undefined, partial: boolean): string {
    const existing = this.variables.find((variable) => String(variable.value).toLowerCase() === String(value).toLowerCase());
    if (existing !== undefined) return existing.name;
    const key = argumentKey?.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^[^a-z]+/, '');
    const base = partial || key === undefined || key === '' || FREE_TEXT_KEYS.has(key) ? (typeof value === 'number' ? undefined : 'topic') : key;
    let name = base ?? `var_${this.variables.length + 1}`;
    for (let suffix = 2; this.variables.some((variable) => variable.name === name); suffix += 1) name = `${base ?? 'var'}_${suffix}`;
    const description =
      name.startsWith('topic') ? `What the task is about (recorded: ${JSON.stringify(value)}).` : `The ${argumentKey ?? 'value'} to use (recorded: ${JSON.stringify(value)}).`;
    this.variables.push({ name, value, description });
    return name;
  }
}

/** Strips generic words from both ends of a task span; what is left is what the task is about. */
function coreOf(text: string): { start: number; end: number } | undefined {
  const words = wordsOf(text);
  const first = words.findIndex((word) => !isGenericWord(word.text));
  if (first < 0) return undefined;
  const last = words.findLastIndex((word) => !isGenericWord(word.text));
  return { start: words[first]!.start, end: words[last]!.end };
}

function bindingFor(argument: ArgumentFlow, flows: readonly StepFlow[], trace: Trace, names: VariableNames, skipUrls: boolean): ArgumentBinding {
  const { source, value } = argument;
  const key = argument.path.findLast((segment): segment is string => typeof segment === 'string');
  switch (source.kind) {
    case 'constant':
      return { kind: 'constant', value };
    case 'task': {
      if (skipUrls && isUrl(value)) return { kind: 'constant', value };
      if (typeof value === 'number') return { kind: 'variable', name: names.nameFor(value, key, false) };
      const text = String(value);
      // Task words inside a longer value are only a variable where the model restates the request
      // (a search query); elsewhere (an email subject) they are wording, and wording is a constant.
      if (!source.whole && !FREE_TEXT_KEYS.has(key?.toLowerCase() ?? '')) return { kind: 'constant', value };
      let template = '';
      let cursor = 0;
      for (const span of source.spans) {
        const core = coreOf(span.text);
        if (core === undefined) continue;
        const start = span.start + core.start;
        const end = span.start + core.end;
        const whole = start === 0 && end === text.length;
        template += `${text.slice(cursor, start)}{{${names.nameFor(text.slice(start, end), key, !whole)}}}`;
        cursor = end;
      }
      template += text.slice(cursor);
      const only = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(template);
      if (only !== null) return { kind: 'variable', name: only[1]! };
      return template.includes('{{') ? { kind: 'template', template } : { kind: 'constant', value };
    }
    case 'result': {
      const lastIndex = source.path.findLastIndex((segment) => typeof segment === 'number');
      const collectionPath = lastIndex < 0 ? null : source.path.map((segment, index) => (index === lastIndex ? '*' : segment));
      const result = trace.steps[flows[source.step]!.traceIndex]!.result;
      const element = lastIndex < 0 ? undefined : valueAtPath(result, source.path.slice(0, lastIndex + 1));
      return {
        kind: 'step-result',
        step: source.step,
        path: formatJsonPath(source.path),
        collection: collectionPath === null ? null : formatJsonPath(collectionPath),
        value_kind: isUrl(value) ? 'url' : 'value',
        key_field: keyFieldOf(element, names),
        prefix: null,
        suffix: null,
        recorded: value,
      };
    }
    case 'result-text':
      return { kind: 'step-result', step: source.step, path: '', collection: null, value_kind: isUrl(value) ? 'url' : 'value', key_field: null, prefix: source.prefix, suffix: source.suffix, recorded: value };
    case 'model-text':
      return { kind: 'text', step: source.step, path: formatJsonPath(source.path), recorded: value };
  }
}

/** A sibling field of the chosen element whose value was a user input: how to find "the same" element again. */
function keyFieldOf(element: unknown, names: VariableNames): { field: string; variable: string } | null {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return null;
  for (const [field, fieldValue] of Object.entries(element)) {
    if (typeof fieldValue !== 'string' && typeof fieldValue !== 'number') continue;
    const variable = names.variables.find((candidate) => String(candidate.value).toLowerCase() === String(fieldValue).toLowerCase());
    if (variable !== undefined) return { field, variable: variable.name };
  }
  return null;
}

function taskTemplate(task: string, variables: readonly Variable[]): string {
  let template = task;
  for (const variable of variables) {
    const escaped = String(variable.value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    template = template.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'), `{{${variable.name}}}`);
  }
  return template;
}

function kebab(text: string): string {
  return text.toLowerCase().replace(/\{\{([a-z0-9_]+)\}\}/g, '$1').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').split('-').slice(0, 6).join('-');
}

/**
 * Turns a successful run's trace and its binding map into a skill, conservatively: only values that
 * came from the user's request become `{{variables}}` (named after what they are when a name can be
 * derived), URLs never do, values from earlier results stay bound to those results, and everything else
 * is a recorded constant. Failed steps are left out; the recording is kept for offline tests.
 */
export function abstractTrace(trace: Trace, flows: readonly StepFlow[], options: AbstractOptions): SkillDocument {
  if (!trace.completed) throw new SkillRecordingError(trace.runId, 'the run did not complete.', 'Save a run that finished with an answer (status completed).');
  if (flows.length === 0) throw new SkillRecordingError(trace.runId, 'it made no successful tool call, so there is nothing to replay.', 'Skills replay tool calls; save a run that used tools.');
  const names = new VariableNames();
  const skipUrls = options.skipUrls ?? true;
  const steps: SkillStep[] = flows.map((flow) => ({
    tool: flow.tool,
    arguments: flow.arguments.map((argument) => ({ path: formatJsonPath(argument.path), binding: bindingFor(argument, flows, trace, names, skipUrls) })),
  }));
  const tools = [...new Set(flows.map((flow) => flow.tool))].map((tool) => {
    const specification = options.specification(tool);
    if (specification === undefined) throw new SkillRecordingError(trace.runId, `its tool "${tool}" is not registered here.`, 'Register the tool (e.g. connect its MCP server) and save again.');
    return { name: tool, schema_hash: schemaHash(specification.inputSchema) };
  });
  const template = taskTemplate(trace.task, names.variables);
  const recordedSteps = flows.map((flow) => trace.steps[flow.traceIndex]!);
  return {
    format: 'forge-skill',
    version: SKILL_FORMAT_VERSION,
    id: randomBytes(6).toString('hex'),
    name: options.name ?? (kebab(template) || 'skill'),
    description: options.description ?? `Replays: ${template} (${flows.map((flow) => flow.tool).join(' → ')})`,
    task_template: template,
    variables_schema: {
      type: 'object',
      properties: Object.fromEntries(
        names.variables.map((variable) => [
          variable.name,
          { type: typeof variable.value === 'number' ? (Number.isInteger(variable.value) ? 'integer' : 'number') : 'string', description: variable.description, examples: [variable.value] },
        ]),
      ),
      required: names.variables.map((variable) => variable.name),
      additionalProperties: false,
    },
    steps,
    tools,
    provenance: { run_id: trace.runId, model: trace.model, task: trace.task, recorded_at: new Date().toISOString() },
    output_contract: outputContractFrom(recordedSteps.map((step) => step.result)),
    recording: {
      inputs: Object.fromEntries(names.variables.map((variable) => [variable.name, variable.value])),
      steps: recordedSteps.map((step) => ({ tool: step.tool, input: step.input, result: step.result })),
    },
  };
}
