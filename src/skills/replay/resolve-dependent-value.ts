import type { UtilityModel } from '../../core/index.js';
import { parseJsonPath, valueAtPath } from '../json-path.js';
import type { ArgumentBinding } from '../skill-document.js';
import { candidatesFor, type Candidate } from './candidates.js';
import { rescueChoice } from './rescue-choice.js';
import type { Resolution, ResolutionStrategy } from './resolution.js';
import { URL_DECISION_MARGIN, recordedHostsFor, scoreUrl } from './url-scoring.js';

type DependentBinding = Extract<ArgumentBinding, { kind: 'step-result' | 'text' }>;

export interface DependentValueContext {
  readonly name: string;
  /** What the caller supplied for this value, if anything. */
  readonly override: unknown;
  /** Fresh results of the steps run so far, as plain JSON. */
  readonly results: readonly unknown[];
  /** Rendered text arguments of the step that produced the candidates, plus the inputs: what URL tokens should match. */
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly recordedVariables: Readonly<Record<string, unknown>>;
  readonly task: string;
  readonly tool: string;
  /** Absent in deterministic replays and offline tests: then nothing can reach a model. */
  readonly rescue: UtilityModel | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A resolution, or why the value could not be resolved at all. */
export type DependentValueOutcome = { readonly ok: true; readonly resolution: Resolution } | { readonly ok: false; readonly reason: string };

function resolved(name: string, strategy: ResolutionStrategy, value: unknown, scored: Resolution['scores'], rejections: Resolution['rejections']): DependentValueOutcome {
  return { ok: true, resolution: { name, strategy, value, candidates: scored.length, scores: scored, rejections } };
}

function sameValue(left: unknown, right: unknown): boolean {
  return typeof left === 'string' && typeof right === 'string' ? left.toLowerCase() === right.toLowerCase() : left === right;
}

/**
 * Resolves one value that depends on a fresh result, cheapest first: the caller's own value
 * (`user_input`); deterministic extraction through the binding (`heuristic`: the only candidate, the
 * element whose key field equals the input, or a URL that leads the scoring by the margin); one small
 * rescue call that may only pick a candidate by index (`llm_rescue`, validated); finally the recorded
 * value while it is still among the candidates (`default`), else the best-ranked candidate. Text handed
 * on unchanged is `text_passthrough`. Every refusal along the way is kept in `rejections`.
 */
export async function resolveDependentValue(binding: DependentBinding, context: DependentValueContext): Promise<DependentValueOutcome> {
  const { name } = context;
  if (context.override !== undefined) return resolved(name, 'user_input', context.override, [], []);
  const result = context.results[binding.step];
  if (binding.kind === 'text') {
    const text = binding.path === '' ? result : valueAtPath(result, parseJsonPath(binding.path) as (string | number)[]);
    if (typeof text === 'string' && text.trim() !== '') return resolved(name, 'text_passthrough', text, [], []);
    return { ok: false, reason: `step ${binding.step} returned no text at "${binding.path || '(result)'}" to hand on` };
  }
  const candidates = candidatesFor(binding, result);
  if (candidates.length === 0) {
    return { ok: false, reason: `step ${binding.step} returned no candidates for ${name} (the recording had ${JSON.stringify(binding.recorded)})` };
  }
  const rejections: { strategy: ResolutionStrategy; reason: string; answer?: string }[] = [];
  const scores = binding.value_kind === 'url' ? scoreCandidates(binding, candidates, context) : candidates.map((candidate) => ({ value: candidate.value, score: null }));
  if (candidates.length === 1) return resolved(name, 'heuristic', candidates[0]!.value, scores, rejections);
  if (binding.key_field !== null) {
    const { field, variable } = binding.key_field;
    const matching = candidates.filter((candidate) => sameValue(valueAtPath(candidate.element, [field]), context.variables[variable]));
    if (matching.length === 1) return resolved(name, 'heuristic', matching[0]!.value, scores, rejections);
    rejections.push({ strategy: 'heuristic', reason: `${matching.length} candidates have ${field} equal to ${JSON.stringify(context.variables[variable])}` });
  }
  const ranked = [...scores].filter((entry) => entry.score !== null).sort((left, right) => right.score! - left.score!);
  if (ranked.length >= 2) {
    const lead = ranked[0]!.score! - ranked[1]!.score!;
    if (lead >= URL_DECISION_MARGIN) return resolved(name, 'heuristic', ranked[0]!.value, scores, rejections);
    rejections.push({ strategy: 'heuristic', reason: `the best URL leads by ${lead.toFixed(1)} points, under the ${URL_DECISION_MARGIN}-point margin` });
  } else if (binding.key_field === null) {
    rejections.push({ strategy: 'heuristic', reason: `${candidates.length} candidates and nothing deterministic to tell them apart` });
  }
  if (context.rescue === undefined) {
    rejections.push({ strategy: 'llm_rescue', reason: 'no rescue model in this replay' });
  } else {
    const outcome = await rescueChoice(context.rescue, {
      task: context.task,
      tool: context.tool,
      argument: name,
      recorded: binding.recorded,
      candidates,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    if (outcome.accepted) return resolved(name, 'llm_rescue', candidates[outcome.index]!.value, scores, rejections);
    rejections.push({ strategy: 'llm_rescue', reason: outcome.reason, answer: outcome.answer.slice(0, 200) });
  }
  const recorded = candidates.find((candidate) => sameValue(candidate.value, binding.recorded));
  if (recorded !== undefined) return resolved(name, 'default', recorded.value, scores, rejections);
  const best = ranked[0]?.value ?? candidates[0]!.value;
  rejections.push({ strategy: 'default', reason: 'the recorded value is not among the fresh candidates; took the best-ranked candidate' });
  return resolved(name, 'default', best, scores, rejections);
}

function scoreCandidates(binding: Extract<DependentBinding, { kind: 'step-result' }>, candidates: readonly Candidate[], context: DependentValueContext) {
  const recordedHosts = recordedHostsFor(binding.recorded, context.recordedVariables, context.variables);
  return candidates.map((candidate) => ({
    value: candidate.value,
    score: typeof candidate.value === 'string' ? scoreUrl(candidate.value, { query: context.query, recordedHosts }).score : null,
  }));
}
