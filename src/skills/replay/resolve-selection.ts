import type { Condition, Selection } from '../document/skill-document.js';
import { formatJsonPath, jsonLeaves, parseJsonPath, valueAtPath, valuesAtPattern, type JsonPath } from '../json-path.js';
import { isScalar } from '../value-shapes.js';
import type { Resolution, ResolutionStrategy } from './resolution.js';
import type { Chooser } from './rescue-choice.js';
import { URL_DECISION_MARGIN, recordedHostsFor, scoreUrl } from './url-scoring.js';

/** One entry a selection could choose, from a fresh result. */
export interface SelectionCandidate {
  /** The value of the selection's field in this entry: what an argument would receive. */
  readonly value: string | number | boolean;
  readonly entry: unknown;
  readonly step: number;
}

export interface SelectionContext {
  /** Fresh results by step; a step not run (a write in a dry run) has none. */
  readonly results: ReadonlyMap<number, unknown>;
  /** Steps whose results rest on a value that is not proven (a recorded fallback). */
  readonly tainted: ReadonlySet<number>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly recordedVariables: Readonly<Record<string, unknown>>;
  readonly task: string;
  /** The step that first needs the choice, and the argument: what the rescue is told. */
  readonly tool: string;
  readonly argument: string;
  readonly target: { readonly step: number; readonly path: string; readonly slot?: string };
  /** What the producing steps asked for and the inputs: what URL tokens should match. */
  readonly query: string;
  /** Absent in deterministic replays and with no model: then nothing may choose beyond the rules. */
  readonly chooser: Chooser | undefined;
  readonly signal: AbortSignal | undefined;
  /**
   * Reads what a bare candidate (an id with no fields beside it) names, by running the read step that
   * takes it; absent when the step is not a one-argument read. A rescue then sees each candidate's
   * fields instead of bare ids.
   */
  readonly probe?: (value: string | number | boolean) => Promise<unknown>;
}

/** At most this many candidates are looked up for a rescue: each costs one read. */
export const MAX_PROBED_CANDIDATES = 8;

/** The entries a selection chose (one for `one`), and how. */
export type SelectionOutcome =
  | { readonly ok: true; readonly entries: readonly SelectionCandidate[]; readonly resolution: Omit<Resolution, 'name' | 'value'> }
  | { readonly ok: false; readonly reason: string; readonly afterSkippedWrite?: boolean };

type Rejection = Resolution['rejections'][number];

function sameScalar(left: unknown, right: unknown): boolean {
  return typeof left === 'string' && typeof right === 'string' ? left.trim().toLowerCase() === right.trim().toLowerCase() : left === right;
}

/**
 * An entry's other fields in a line (`options.color: black, price: 54.04`), its own fields before
 * nested ones: what a rescue needs to choose well, within a bounded length.
 */
export function compactFields(entry: unknown, field: string): string {
  if (typeof entry !== 'object' || entry === null) return '';
  const parts = jsonLeaves(entry)
    .filter((leaf) => formatJsonPath(leaf.path) !== field)
    .map((leaf, order) => ({ leaf, order }))
    .sort((left, right) => left.leaf.path.length - right.leaf.path.length || left.order - right.order)
    .map(({ leaf }) => `${formatJsonPath(leaf.path)}: ${String(leaf.value).replace(/\s+/g, ' ').slice(0, 160)}`);
  const text = parts.join(', ');
  return text.length > COMPACT_FIELDS_LIMIT ? `${text.slice(0, COMPACT_FIELDS_LIMIT - 1)}…` : text;
}

/** How much of one candidate's fields a rescue is shown. */
const COMPACT_FIELDS_LIMIT = 600;

function gather(selection: Selection, context: SelectionContext): { candidates: SelectionCandidate[] } | { missing: number } {
  const collection = parseJsonPath(selection.collection);
  const field = parseJsonPath(selection.field) as JsonPath;
  const candidates: SelectionCandidate[] = [];
  for (const step of selection.steps) {
    if (!context.results.has(step)) return { missing: step };
    const result = context.results.get(step);
    const entries = collection.length === 0 ? [result] : valuesAtPattern(result, collection).map((entry) => entry.value);
    for (const entry of entries) {
      const value = field.length === 0 ? entry : valueAtPath(entry, field);
      if (isScalar(value) && value !== null) candidates.push({ value, entry, step });
    }
  }
  return { candidates };
}

function holds(condition: Condition, candidate: SelectionCandidate, variables: Readonly<Record<string, unknown>>): boolean {
  const actual = valueAtPath(candidate.entry, parseJsonPath(condition.field) as JsonPath);
  const expected = 'literal' in condition.operand ? condition.operand.literal : variables[condition.operand.input];
  if (condition.operator === 'in') return Array.isArray(expected) && expected.some((value) => sameScalar(actual, value));
  return sameScalar(actual, expected);
}

function describeCondition(condition: Condition, variables: Readonly<Record<string, unknown>>): string {
  const operand = 'literal' in condition.operand ? JSON.stringify(condition.operand.literal) : `{{${condition.operand.input}}} (${JSON.stringify(variables[condition.operand.input])})`;
  return `${condition.field} ${condition.operator === 'in' ? 'is one of' : '='} ${operand}`;
}

function distinct(candidates: readonly SelectionCandidate[]): unknown[] {
  return [...new Set(candidates.map((candidate) => candidate.value))];
}

/**
 * A `many` selection narrowed by a list input: each listed value takes as many entries as it is listed
 * (an order holding the same item twice gives two entries). More matching entries than that is not a
 * decision a rule can make; fewer is a value the data does not have.
 */
function byListInput(candidates: readonly SelectionCandidate[], condition: Condition, variables: Readonly<Record<string, unknown>>): { entries: SelectionCandidate[] } | { ambiguous: string } | { missing: string } {
  const wanted = variables[(condition.operand as { input: string }).input] as unknown[];
  const field = parseJsonPath(condition.field) as JsonPath;
  const entries: SelectionCandidate[] = [];
  for (const value of new Set(wanted.map((item) => String(item).toLowerCase()))) {
    const times = wanted.filter((item) => String(item).toLowerCase() === value).length;
    const matching = candidates.filter((candidate) => sameScalar(valueAtPath(candidate.entry, field), value));
    if (matching.length < times) return { missing: `${matching.length} entries have ${condition.field} ${JSON.stringify(value)}, ${times} wanted` };
    if (matching.length > times) return { ambiguous: `${matching.length} entries have ${condition.field} ${JSON.stringify(value)}, ${times} wanted` };
    entries.push(...matching);
  }
  return { entries: candidates.filter((candidate) => entries.includes(candidate)) };
}

/**
 * Resolves a selection against fresh results, cheapest first: candidates that break a condition are
 * dropped (states the recording saw, inputs the request named); what is left is decided by a rule when
 * it can be (one distinct value when an input decided it or there was only ever one, a URL leading by
 * the margin, a list input naming each entry), else by one rescue call that sees each candidate's
 * fields and may only answer with indexes, else, as a last resort a write never accepts, by the
 * recorded value while it is still among the candidates (`default`, not proven).
 */
export async function resolveSelection(selection: Selection, context: SelectionContext): Promise<SelectionOutcome> {
  const gathered = gather(selection, context);
  if ('missing' in gathered) return { ok: false, reason: `it chooses among the result of step ${gathered.missing}, which did not run (a write a dry run does not make)`, afterSkippedWrite: true };
  const all = gathered.candidates;
  const tainted = selection.steps.some((step) => context.tainted.has(step));
  if (all.length === 0) return { ok: false, reason: `step ${selection.steps.join('/')} returned no candidates at ${selection.collection || '(result)'}${selection.field === '' ? '' : ` → ${selection.field}`}` };
  const rejections: Rejection[] = [];
  let candidates = all;
  let narrowedByInput = false;
  for (const condition of selection.conditions) {
    if (condition.operator === 'in') continue;
    const kept = candidates.filter((candidate) => holds(condition, candidate, context.variables));
    if (kept.length === 0) return { ok: false, reason: `no candidate has ${describeCondition(condition, context.variables)} (${candidates.length} considered)` };
    if ('input' in condition.operand && kept.length < candidates.length) narrowedByInput = true;
    candidates = kept;
  }
  const scores = candidates.map((candidate) => ({ value: candidate.value, score: selection.scoring === 'url' && typeof candidate.value === 'string' ? scoreUrl(candidate.value, { query: context.query, recordedHosts: recordedHostsFor(selection.recorded[0], context.recordedVariables, context.variables) }).score : null }));
  const decided = (entries: readonly SelectionCandidate[], strategy: ResolutionStrategy, because: string): SelectionOutcome => ({
    ok: true,
    entries,
    resolution: { strategy, because, proven: strategy !== 'default' && !tainted, candidates: candidates.length, scores, rejections },
  });

  const listCondition = selection.conditions.find((condition) => condition.operator === 'in');
  if (selection.cardinality === 'many' && listCondition !== undefined) {
    const listed = byListInput(candidates, listCondition, context.variables);
    if ('missing' in listed) return { ok: false, reason: listed.missing };
    if ('entries' in listed) return decided(listed.entries, 'heuristic', `the entries whose ${describeCondition(listCondition, context.variables)}`);
    rejections.push({ strategy: 'heuristic', reason: listed.ambiguous });
  } else if (selection.cardinality === 'one') {
    const values = distinct(candidates);
    if (values.length === 1 && (narrowedByInput || distinct(all).length === 1)) {
      return decided([candidates[0]!], 'heuristic', candidates.length === 1 && all.length === 1 ? 'the only candidate' : narrowedByInput ? `the only candidate whose ${selection.conditions.filter((condition) => 'input' in condition.operand).map((condition) => describeCondition(condition, context.variables)).join(' and ')}` : 'every candidate has this value');
    }
    const leading = scores.filter((entry) => entry.score !== null).sort((left, right) => right.score! - left.score!);
    if (leading.length >= 2) {
      const lead = leading[0]!.score! - leading[1]!.score!;
      if (lead >= URL_DECISION_MARGIN) return decided([candidates.find((candidate) => candidate.value === leading[0]!.value)!], 'heuristic', `the URL that leads the scoring by ${lead.toFixed(1)} points`);
      rejections.push({ strategy: 'heuristic', reason: `the best URL leads by ${lead.toFixed(1)} points, under the ${URL_DECISION_MARGIN}-point margin` });
    } else {
      rejections.push({ strategy: 'heuristic', reason: `${candidates.length} candidates${values.length === 1 ? ' (one value, but only states narrowed them)' : ''} and no input to tell them apart` });
    }
  } else {
    rejections.push({ strategy: 'heuristic', reason: `a list of ${candidates.length} candidates and no input naming its entries` });
  }

  if (context.chooser === undefined) {
    rejections.push({ strategy: 'llm_rescue', reason: 'no rescue model in this replay' });
  } else {
    const fields = await candidateFields(selection, candidates, context);
    const outcome = await context.chooser({
      task: context.task,
      tool: context.tool,
      argument: context.argument,
      target: context.target,
      cardinality: selection.cardinality,
      recorded: selection.recorded,
      candidates: candidates.map((candidate, index) => ({ value: candidate.value, fields: fields[index]! })),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    if (outcome.accepted) return decided(outcome.indexes.map((index) => candidates[index]!), 'llm_rescue', `the rescue chose candidate${outcome.indexes.length === 1 ? '' : 's'} ${outcome.indexes.join(', ')} of ${candidates.length}`);
    rejections.push({ strategy: 'llm_rescue', reason: outcome.reason, answer: outcome.answer.slice(0, 200) });
  }

  const recorded = candidates.filter((candidate) => selection.recorded.some((value) => sameScalar(candidate.value, value)));
  if (selection.cardinality === 'many' && recorded.length > 0) return decided(recorded, 'default', 'the recorded entries, still among the candidates (not proven for this replay)');
  if (selection.cardinality === 'one' && recorded.length > 0) return decided([recorded[0]!], 'default', 'the recorded value, still among the candidates (not proven for this replay)');
  const best = bestRanked(scores, candidates);
  rejections.push({ strategy: 'default', reason: 'the recorded value is not among the fresh candidates; took the best-ranked candidate' });
  return decided([best], 'default', 'the best-ranked candidate (not proven for this replay)');
}

/** Each candidate's fields for the rescue: its entry's, or for bare ids what the read that takes it returns. */
async function candidateFields(selection: Selection, candidates: readonly SelectionCandidate[], context: SelectionContext): Promise<string[]> {
  const bare = candidates.every((candidate) => typeof candidate.entry !== 'object' || candidate.entry === null);
  if (!bare || context.probe === undefined || candidates.length > MAX_PROBED_CANDIDATES) return candidates.map((candidate) => compactFields(candidate.entry, selection.field));
  const fields: string[] = [];
  for (const candidate of candidates) fields.push(compactFields(await context.probe(candidate.value), ''));
  return fields;
}

function bestRanked(scores: readonly { value: unknown; score: number | null }[], candidates: readonly SelectionCandidate[]): SelectionCandidate {
  const best = [...scores].filter((entry) => entry.score !== null).sort((left, right) => right.score! - left.score!)[0];
  return (best === undefined ? undefined : candidates.find((candidate) => candidate.value === best.value)) ?? candidates[0]!;
}
