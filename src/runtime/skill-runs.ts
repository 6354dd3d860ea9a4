import { randomBytes } from 'node:crypto';
import { ConfigurationError, NotFoundError, type SkillRecord, type UtilityModel } from '../core/index.js';
import { createUtilityModel, defaultModelSlug, resolveModel, type ResolvedModel } from '../llm/index.js';
import {
  extractSkillInputs,
  matchSkillForTask,
  mergeRecording,
  parseSkillDocument,
  parseSkillReference,
  pinConstants,
  refuseReplay,
  replaySkill,
  replayTaskText,
  skillFromRunEvents,
  unpinnedWriteConstants,
  validateSkillInputs,
  type InputExtraction,
  type ReplayModeOption,
  type SkillDocument,
  type SkillReplayResult,
} from '../skills/index.js';
import { runTask, type ForgeRuntime, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';

/** Reads a stored skill (at a version, with `name@n`) and its document; a clear error when there is none. */
export async function loadSkill(runtime: ForgeRuntime, reference: string): Promise<{ record: SkillRecord; document: SkillDocument }> {
  const { idOrName, version } = parseSkillReference(reference);
  const record = await runtime.store.skills.get(idOrName, version);
  if (record === undefined) {
    if (version !== undefined && (await runtime.store.skills.get(idOrName)) !== undefined) {
      throw new NotFoundError('skill version', reference, `List its versions with \`forge skill versions ${idOrName}\`.`);
    }
    throw new NotFoundError('skill', reference, 'List the stored skills with `forge skill list`, or save one from a run with `forge skill save <run-id>`.');
  }
  return { record, document: parseSkillDocument(record.document) };
}

export interface SaveSkillFromRunOptions {
  readonly name?: string;
  readonly description?: string;
  /** Arguments to pin as constants (`steps[2].subject`). */
  readonly constants?: readonly string[];
  /** Add the run as another recording of this stored skill instead of saving a new one. */
  readonly into?: string;
}

/** A saved skill, with the write arguments it sends as constants (each makes a replay refuse until pinned). */
export interface SavedSkill {
  readonly document: SkillDocument;
  readonly version: number;
  readonly write_constants: readonly { readonly name: string; readonly value: unknown }[];
}

/** A skill's unpinned write constants, judging steps with an unrecorded side effect by the registered tool. */
export function writeConstantsOf(runtime: ForgeRuntime, document: SkillDocument): { name: string; value: unknown }[] {
  return unpinnedWriteConstants(document, (tool) => runtime.registry.get(tool)?.sideEffect);
}

async function store(runtime: ForgeRuntime, document: SkillDocument, note: string, parentVersion?: number): Promise<SavedSkill> {
  const saved = await runtime.store.skills.save({ id: document.id, name: document.name, description: document.description, document, note, ...(parentVersion === undefined ? {} : { parentVersion }) });
  const stored = { ...document, id: saved.id };
  return { document: stored, version: saved.version, write_constants: writeConstantsOf(runtime, stored) };
}

/**
 * Abstracts a finished run (from its stored events) into a skill and stores it as a new version under
 * its name; with `into`, adds the run as another recording of that skill (arguments that differ across
 * recordings become inputs or stay bound, never constants).
 */
export async function saveSkillFromRun(runtime: ForgeRuntime, runId: string, options: SaveSkillFromRunOptions = {}): Promise<SavedSkill> {
  const events = await runtime.store.events.list(runId);
  if (events.length === 0) throw new NotFoundError('run', runId, 'Use a run id printed by `forge run` (its --json output has run_id).');
  if (options.into !== undefined) {
    const { document: existing } = await loadSkill(runtime, options.into);
    const addition = skillFromRunEvents(events, runtime.registry, { constants: options.constants ?? [] });
    const merged = mergeRecording(existing, addition);
    return store(runtime, merged, `recording from run ${runId} added`);
  }
  const document = skillFromRunEvents(events, runtime.registry, {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.constants === undefined ? {} : { constants: options.constants }),
  });
  return store(runtime, document, `saved from run ${runId}`);
}

/**
 * Stores an imported skill document (any known format version) as a new version under its name. A
 * document whose id another stored skill already has (a copy renamed by hand) gets an id of its own.
 */
export async function importSkill(runtime: ForgeRuntime, value: unknown): Promise<SavedSkill> {
  const document = parseSkillDocument(value);
  const holder = await runtime.store.skills.get(document.id);
  const id = holder !== undefined && holder.name !== document.name ? randomBytes(6).toString('hex') : document.id;
  return store(runtime, { ...document, id }, 'imported');
}

/** Pins arguments as constants (`steps[2].subject`): a new version; the write gate then lets them through. */
export async function editSkill(runtime: ForgeRuntime, reference: string, edit: { readonly constants: readonly string[] }): Promise<SavedSkill> {
  if (edit.constants.length === 0) throw new ConfigurationError('--constant', 'names no argument to pin.', 'Name one or more arguments, e.g. --constant steps[2].subject (see `forge skill show`).');
  const { record, document } = await loadSkill(runtime, reference);
  return store(runtime, pinConstants(document, edit.constants), `pinned ${edit.constants.join(', ')}`, record.version);
}

/** Makes an older version current again, as a new version whose lineage points at it. */
export async function rollbackSkill(runtime: ForgeRuntime, name: string, version: number): Promise<SavedSkill> {
  const { record } = await loadSkill(runtime, `${parseSkillReference(name).idOrName}@${version}`);
  return store(runtime, parseSkillDocument(record.document), `rolled back to version ${version}`, version);
}

export interface RunSkillOptions {
  /** A stored skill's id, name or `name@n`, or a document in hand. */
  readonly skill: string | SkillDocument;
  readonly inputs: Readonly<Record<string, unknown>>;
  /**
   * Read the inputs from this free-text task inside the replay's run (deterministically where it can,
   * else one small structured call on the run's model, counted): `forge run --skills`. A task that does
   * not say a required input ends the run `refused` before anything runs.
   */
  readonly extractFrom?: { readonly task: string; readonly templateInputs?: Readonly<Record<string, string>> };
  readonly mode?: ReplayModeOption;
  /** The request in the user's words, shown to the rescue. */
  readonly request?: string;
  /** Resolve every value, run the reads, make no write: report what each write would send. */
  readonly dryRun?: boolean;
  /** Ask a model for a summary of the fresh results at the end (one metered call). */
  readonly summarize?: boolean;
  /** The model for the summary, and for the rescue when FORGE_RESCUE_MODEL is unset. */
  readonly model?: string | ResolvedModel;
  /** A rescue model built in code (tests, benchmarks); FORGE_RESCUE_MODEL and the run's model otherwise. */
  readonly rescueModel?: ResolvedModel;
  readonly signal?: AbortSignal;
  /** Why `forge run --skills` chose this skill: opens the replay's log as a `skill-match` event. */
  readonly match?: { readonly reason: string };
}

export interface RunSkillResult extends SkillReplayResult {
  readonly log_file: string;
  /** How the inputs were read from the task, when they were (`forge run --skills`). */
  readonly extraction: InputExtraction | null;
}

function optionalModel(runtime: ForgeRuntime, explicit: string | ResolvedModel | undefined): ResolvedModel | undefined {
  if (typeof explicit === 'object') return explicit;
  try {
    return resolveModel(defaultModelSlug(runtime.config.env, explicit), runtime.config.env, explicit === undefined ? 'FORGE_MODEL' : '--model');
  } catch (error) {
    if (explicit !== undefined) throw error;
    return undefined;
  }
}

function rescueModelFor(runtime: ForgeRuntime, options: Pick<RunSkillOptions, 'rescueModel'>, runModel: ResolvedModel | undefined): ResolvedModel | undefined {
  if (options.rescueModel !== undefined) return options.rescueModel;
  const rescueSlug = runtime.config.env['FORGE_RESCUE_MODEL']?.trim();
  return rescueSlug !== undefined && rescueSlug !== '' ? resolveModel(rescueSlug, runtime.config.env, 'FORGE_RESCUE_MODEL') : runModel;
}

/**
 * Replays a skill as a recorded run (store row, run log, events) like any other. The rescue uses
 * FORGE_RESCUE_MODEL, else the run's model; with no model configured at all a guided replay still runs
 * and goes past the rescue (a write then refuses rather than guess). Given inputs are checked before a
 * run is created. A replay that finds the skill stale marks it stale in the store.
 */
export async function runSkill(runtime: ForgeRuntime, options: RunSkillOptions): Promise<RunSkillResult> {
  const { store: skillStore, config } = runtime;
  const loaded = typeof options.skill === 'string' ? await loadSkill(runtime, options.skill) : undefined;
  const document = loaded?.document ?? (options.skill as SkillDocument);
  if (options.extractFrom === undefined) validateSkillInputs(document, options.inputs);
  const runModel = optionalModel(runtime, options.model);
  const rescueModel = rescueModelFor(runtime, options, runModel);
  if (options.summarize === true && runModel === undefined) resolveModel(defaultModelSlug(config.env), config.env, 'FORGE_MODEL');

  let extraction: InputExtraction | null = null;
  const handle = runtime.runs.start({
    kind: 'skill',
    task: runtime.redactor.redactText(options.extractFrom?.task ?? `skill ${document.name}: ${replayTaskText(document, options.inputs)}`),
    model: rescueModel?.slug ?? 'none',
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    execute: async ({ emitter, meter, signal }): Promise<SkillReplayResult> => {
      const utility = (model: ResolvedModel | undefined): UtilityModel | undefined => (model === undefined ? undefined : createUtilityModel(model, meter, emitter.emit));
      let inputs = options.inputs;
      if (options.extractFrom !== undefined) {
        extraction = await extractSkillInputs(document, options.extractFrom.task, {
          ...(options.extractFrom.templateInputs === undefined ? {} : { fromTemplate: options.extractFrom.templateInputs }),
          ...(runModel === undefined ? {} : { model: utility(runModel)! }),
          signal,
        });
        inputs = extraction.inputs;
      }
      if (options.match !== undefined) emitter.emit({ type: 'skill-match', decision: 'replay', skill: document.name, reason: `${options.match.reason}${extraction === null ? '' : `; inputs read ${extraction.method}`}`, inputs: { ...inputs } });
      const replay = {
        document,
        inputs,
        mode: options.mode ?? 'auto',
        registry: runtime.registry,
        policy: runtime.policy,
        approvals: runtime.approvals,
        emitter,
        meter,
        toolContext: { fetch: runtime.fetch, utilityModel: undefined },
        ...(options.request === undefined ? {} : { request: options.request }),
        ...(options.dryRun === true ? { dryRun: true } : {}),
        signal,
        ...(rescueModel === undefined ? {} : { rescueModel: utility(rescueModel)! }),
        ...(options.summarize === true && runModel !== undefined ? { summaryModel: utility(runModel)! } : {}),
      };
      const missing = extraction?.missing ?? [];
      return missing.length > 0
        ? refuseReplay(replay, `the task does not say ${missing.map((name) => `"${name}"`).join(', ')}`, `Give ${missing.length === 1 ? 'it' : 'them'} yourself (forge skill run ${document.name} ${missing.map((name) => `--input ${name}=<value>`).join(' ')}), or run the task without --skills to use the full agent.`)
        : replaySkill(replay);
    },
  });
  const result = await handle.result;
  if (result.stale !== null && loaded !== undefined) await skillStore.skills.setStatus(loaded.record.id, 'stale', result.stale);
  return { ...result, log_file: handle.logFile, extraction };
}

/** What `forge run --skills` did: replayed (or refused to replay) a matching skill, or ran the full agent. */
export type SkillAwareRunResult = (RunSkillResult & { readonly replayed_skill: string }) | (RunTaskResult & { readonly replayed_skill: null });

/**
 * `forge run --skills`: chooses the stored skill for a free-text task (see `matchSkillForTask`: a
 * wrong match must stay rarer than a missed one), reads its inputs from the task and replays it; a
 * task that does not say a required input is refused (nothing runs, the run says which input). When
 * no skill fits, the full agent runs. Either way the run's log opens with a `skill-match` event.
 */
export async function runTaskWithSkills(runtime: ForgeRuntime, options: RunTaskOptions & Pick<RunSkillOptions, 'rescueModel'>): Promise<SkillAwareRunResult> {
  const documents: SkillDocument[] = [];
  for (const record of await runtime.store.skills.list()) {
    if (record.status !== 'active') continue;
    try {
      documents.push(parseSkillDocument(record.document));
    } catch {
      // An unreadable stored skill cannot match; `forge skill show` reports why.
    }
  }
  const match = matchSkillForTask(options.task, documents);
  if (match.matched) {
    const replayed = await runSkill(runtime, {
      skill: match.skill.name,
      inputs: {},
      extractFrom: { task: options.task, ...(match.inputs === undefined ? {} : { templateInputs: match.inputs }) },
      request: options.task,
      match: { reason: match.reason },
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.rescueModel === undefined ? {} : { rescueModel: options.rescueModel }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { ...replayed, replayed_skill: match.skill.name };
  }
  const ran = await runTask(runtime, {
    ...options,
    preludeEvents: [...(options.preludeEvents ?? []), { type: 'skill-match', decision: 'fallback', skill: null, reason: match.reason, inputs: {} }],
  });
  return { ...ran, replayed_skill: null };
}
