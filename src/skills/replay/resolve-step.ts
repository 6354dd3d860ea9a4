import type { ArgumentBinding, SkillDocument, SlotBinding } from '../document/skill-document.js';
import { fillTemplate } from '../document/templates.js';
import { parseJsonPath, setAtPath, valueAtPath, type JsonPath } from '../json-path.js';
import type { SkillInputs } from '../skill-inputs.js';
import { dependentValueName } from '../skill-inputs.js';
import { isIdLike, isScalar } from '../value-shapes.js';
import type { Chooser } from './rescue-choice.js';
import type { Resolution } from './resolution.js';
import { resolveSelection, type SelectionOutcome } from './resolve-selection.js';

/** What a replay knows while it resolves its steps; selections are resolved once and shared. */
export interface ReplayState {
  readonly document: SkillDocument;
  readonly inputs: SkillInputs;
  /** Fresh results by step; a step not run (a write in a dry run) has none. */
  readonly results: Map<number, unknown>;
  readonly tainted: Set<number>;
  readonly selections: Map<string, SelectionOutcome>;
  /** The values each step was given, for URL scoring of the candidates it produced. */
  readonly givenValues: Map<number, readonly unknown[]>;
  readonly task: string;
  readonly chooser: Chooser | undefined;
  readonly signal: AbortSignal;
  /** Runs a read step with this input and returns its fresh result (an outcome the replay then reuses); absent offline. */
  readonly probeStep?: (index: number, input: Record<string, unknown>) => Promise<unknown>;
}

export type StepInput =
  | { readonly ok: true; readonly input: Record<string, unknown>; readonly resolutions: readonly Resolution[] }
  | { readonly ok: false; readonly argument: string; readonly reason: string; readonly afterSkippedWrite: boolean; readonly resolutions: readonly Resolution[] };

/** `afterSkippedWrite`: the value needs the result of a write a dry run did not make. */
type Settled = { readonly ok: true; readonly value: unknown; readonly resolution: Omit<Resolution, 'name'> } | { readonly ok: false; readonly reason: string; readonly afterSkippedWrite?: boolean };

function plain(strategy: Resolution['strategy'], value: unknown, because: string, proven: boolean): Settled {
  return { ok: true, value, resolution: { strategy, value, because, proven, candidates: 0, scores: [], rejections: [] } };
}

function textSpan(result: unknown, prefix: string, suffix: string): string | undefined {
  if (typeof result !== 'string') return undefined;
  const start = result.indexOf(prefix);
  if (start < 0) return undefined;
  const from = start + prefix.length;
  const suffixAt = suffix === '' ? -1 : result.indexOf(suffix, from);
  const end = suffixAt >= 0 ? suffixAt : (/\s/.exec(result.slice(from))?.index ?? result.length - from) + from;
  const value = result.slice(from, end);
  return value === '' ? undefined : value;
}

class StepResolver {
  constructor(
    private readonly state: ReplayState,
    private readonly index: number,
  ) {}

  private freshResult(step: number): { ok: true; result: unknown; proven: boolean } | { ok: false; reason: string; afterSkippedWrite: true } {
    if (!this.state.results.has(step)) return { ok: false, reason: `it depends on the result of step ${step}, which did not run (a write a dry run does not make)`, afterSkippedWrite: true };
    return { ok: true, result: this.state.results.get(step), proven: !this.state.tainted.has(step) };
  }

  private async selection(name: string, argument: string, target: { step: number; path: string; slot?: string }): Promise<SelectionOutcome> {
    const known = this.state.selections.get(name);
    if (known !== undefined) return known;
    const selection = this.state.document.selections.find((candidate) => candidate.name === name)!;
    const step = this.state.document.steps[this.index]!;
    const outcome = await resolveSelection(selection, {
      results: this.state.results,
      tainted: this.state.tainted,
      variables: this.state.inputs.variables,
      recordedVariables: this.state.document.recordings[0]!.inputs,
      task: this.state.task,
      tool: step.tool,
      argument,
      target,
      query: [...selection.steps.flatMap((from) => this.state.givenValues.get(from) ?? []), ...Object.values(this.state.inputs.variables)].map(String).join(' '),
      chooser: this.state.chooser,
      signal: this.state.signal,
      ...this.probeFor(name),
    });
    this.state.selections.set(name, outcome);
    return outcome;
  }

  /** A probe for a choice whose first use is the only argument of a read step (a lookup by id). */
  private probeFor(selection: string): { probe?: (value: string | number | boolean) => Promise<unknown> } {
    const step = this.state.document.steps[this.index]!;
    const probeStep = this.state.probeStep;
    const only = step.arguments.length === 1 ? step.arguments[0]! : undefined;
    if (probeStep === undefined || step.side_effect === 'write' || only === undefined || only.binding.kind !== 'selected' || only.binding.selection !== selection) return {};
    return {
      probe: (value) => {
        const input = Object.create(null) as Record<string, unknown>;
        setAtPath(input, parseJsonPath(only.path) as JsonPath, value);
        return probeStep(this.index, input);
      },
    };
  }

  async settle(binding: SlotBinding, target: { step: number; path: string; slot?: string }): Promise<Settled> {
    const argument = `${dependentValueName(target.step, target.path)}${target.slot === undefined ? '' : ` {{${target.slot}}}`}`;
    switch (binding.kind) {
      case 'constant':
        return plain('constant', binding.value, binding.pinned ? 'a constant the skill pins' : 'a constant from the recording (not pinned)', binding.pinned);
      case 'input':
        return plain('user_input', this.state.inputs.variables[binding.name], `the input {{${binding.name}}}`, true);
      case 'result': {
        const fresh = this.freshResult(binding.step);
        if (!fresh.ok) return fresh;
        const value = binding.path === '' ? fresh.result : valueAtPath(fresh.result, parseJsonPath(binding.path) as JsonPath);
        if (!isScalar(value) || value === null) return { ok: false, reason: `step ${binding.step} returned no value at ${binding.path || '(result)'}` };
        return plain('heuristic', value, `step ${binding.step}'s result at ${binding.path || '(the whole result)'}`, fresh.proven);
      }
      case 'selected':
      case 'selected-list': {
        const outcome = await this.selection(binding.selection, argument, target);
        if (!outcome.ok) return { ok: false, reason: `the choice "${binding.selection}" failed: ${outcome.reason}`, afterSkippedWrite: outcome.afterSkippedWrite === true };
        const field = parseJsonPath(binding.field) as JsonPath;
        const values = outcome.entries.map((entry) => (field.length === 0 ? entry.entry : valueAtPath(entry.entry, field)));
        if (binding.kind === 'selected' && values.length !== 1) return { ok: false, reason: `the choice "${binding.selection}" took ${values.length} entries where this value needs one` };
        const value = binding.kind === 'selected' ? values[0] : values;
        return { ok: true, value, resolution: { ...outcome.resolution, value, because: `${binding.selection}${binding.field === '' ? '' : `.${binding.field}`}: ${outcome.resolution.because}` } };
      }
      case 'text-span': {
        const fresh = this.freshResult(binding.step);
        if (!fresh.ok) return fresh;
        const value = textSpan(fresh.result, binding.prefix, binding.suffix);
        if (value === undefined) return { ok: false, reason: `step ${binding.step}'s text has nothing after ${JSON.stringify(binding.prefix)}` };
        return plain('heuristic', value, `the text of step ${binding.step} after ${JSON.stringify(binding.prefix)}`, fresh.proven);
      }
      case 'passthrough': {
        const fresh = this.freshResult(binding.step);
        if (!fresh.ok) return fresh;
        const text = binding.path === '' ? fresh.result : valueAtPath(fresh.result, parseJsonPath(binding.path) as JsonPath);
        if (typeof text !== 'string' || text.trim() === '') return { ok: false, reason: `step ${binding.step} returned no text at "${binding.path || '(result)'}" to hand on` };
        return plain('text_passthrough', text, `the text step ${binding.step} returned`, fresh.proven);
      }
    }
  }

  async settleArgument(binding: ArgumentBinding, path: string): Promise<Settled> {
    if (binding.kind !== 'template') return this.settle(binding, { step: this.index, path });
    const values: Record<string, unknown> = {};
    const parts: Omit<Resolution, 'name'>[] = [];
    for (const [slot, slotBinding] of Object.entries(binding.slots)) {
      const settled = await this.settle(slotBinding, { step: this.index, path, slot });
      if (!settled.ok) return { ok: false, reason: `{{${slot}}}: ${settled.reason}`, afterSkippedWrite: settled.afterSkippedWrite === true };
      values[slot] = settled.value;
      parts.push(settled.resolution);
    }
    const value = fillTemplate(binding.template, values);
    const strategies = parts.map((part) => part.strategy);
    const strategy = (['default', 'llm_rescue', 'heuristic', 'text_passthrough', 'constant', 'user_input'] as const).find((candidate) => strategies.includes(candidate)) ?? 'user_input';
    const because = `${JSON.stringify(binding.template)} with ${Object.keys(binding.slots).map((slot, index) => `{{${slot}}} = ${JSON.stringify(values[slot])} (${parts[index]!.because})`).join(', ')}`;
    return plain(strategy, value, because, parts.every((part) => part.proven));
  }
}

/**
 * The input of one step with every value filled in, and how each value was resolved (caller
 * overrides first: `--input steps[1].url=…`). Stops at the first value that cannot be resolved and
 * says which and why. Objects it builds from argument paths have no prototype.
 */
export async function resolveStepInput(state: ReplayState, index: number): Promise<StepInput> {
  const step = state.document.steps[index]!;
  const resolver = new StepResolver(state, index);
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const resolutions: Resolution[] = [];
  for (const { path, binding } of step.arguments) {
    const name = binding.kind === 'input' ? binding.name : binding.kind === 'template' ? path : dependentValueName(index, path);
    const override = state.inputs.overrides[dependentValueName(index, path)];
    const settled = override !== undefined ? plain('user_input', override, `your --input ${dependentValueName(index, path)}`, true) : await resolver.settleArgument(binding, path);
    if (!settled.ok) return { ok: false, argument: path, reason: settled.reason, afterSkippedWrite: settled.afterSkippedWrite === true, resolutions };
    resolutions.push({ name, ...settled.resolution, value: settled.value });
    setAtPath(input, parseJsonPath(path) as JsonPath, settled.value);
  }
  state.givenValues.set(index, resolutions.map((resolution) => resolution.value));
  return { ok: true, input, resolutions };
}

/**
 * Whether a step's result rests on something this replay did not prove: a recorded fallback, a value
 * from an earlier such result, or a recorded id. Constants that are not ids (a page size, a flag) are
 * part of the recipe and taint nothing.
 */
export function restsOnUnproven(resolutions: readonly Resolution[]): boolean {
  return resolutions.some((resolution) => !resolution.proven && (resolution.strategy !== 'constant' || isIdLike(resolution.value)));
}
