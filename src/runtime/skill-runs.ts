import { NotFoundError, type SkillRecord, type UtilityModel } from '../core/index.js';
import { createRunEmitter } from '../events/index.js';
import { CostMeter, createUtilityModel, defaultModelSlug, resolveModel, type ResolvedModel } from '../llm/index.js';
import { RunRecorder, runLogPath } from '../runlog/index.js';
import {
  matchSkill,
  parseSkillDocument,
  replaySkill,
  replayTaskText,
  skillFromRunEvents,
  validateSkillInputs,
  type ReplayModeOption,
  type SkillDocument,
  type SkillReplayResult,
} from '../skills/index.js';
import { newRunId, runTask, type ForgeRuntime, type RunTaskOptions, type RunTaskResult } from './forge-runtime.js';

/** Reads a stored skill and its document; a clear error when there is none by that id or name. */
export async function loadSkill(runtime: ForgeRuntime, idOrName: string): Promise<{ record: SkillRecord; document: SkillDocument }> {
  const record = await runtime.store.skills.get(idOrName);
  if (record === undefined) throw new NotFoundError('skill', idOrName, 'List the stored skills with `forge skill list`, or save one from a run with `forge skill save <run-id>`.');
  return { record, document: parseSkillDocument(record.document) };
}

/** Abstracts a finished run (from its stored events) into a skill and stores it under its name. */
export async function saveSkillFromRun(runtime: ForgeRuntime, runId: string, options: { name?: string; description?: string } = {}): Promise<SkillDocument> {
  const events = await runtime.store.events.list(runId);
  if (events.length === 0) throw new NotFoundError('run', runId, 'Use a run id printed by `forge run` (its --json output has run_id).');
  const document = skillFromRunEvents(events, runtime.registry, options);
  const saved = await runtime.store.skills.save({ id: document.id, name: document.name, description: document.description, document });
  return { ...document, id: saved.id };
}

/** Stores an imported skill document (any known format version) under its name. */
export async function importSkill(runtime: ForgeRuntime, value: unknown): Promise<SkillDocument> {
  const document = parseSkillDocument(value);
  const saved = await runtime.store.skills.save({ id: document.id, name: document.name, description: document.description, document });
  return { ...document, id: saved.id };
}

export interface RunSkillOptions {
  /** A stored skill's id or name, or a document in hand. */
  readonly skill: string | SkillDocument;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly mode?: ReplayModeOption;
  /** Ask a model for a summary of the fresh results at the end (one metered call). */
  readonly summarize?: boolean;
  /** The model for the summary, and for the rescue when FORGE_RESCUE_MODEL is unset. */
  readonly model?: string | ResolvedModel;
  readonly signal?: AbortSignal;
  /** Why `forge run --skills` chose this skill: opens the replay's log as a `skill-match` event. */
  readonly match?: { readonly reason: string; readonly inputs: Readonly<Record<string, unknown>> };
}

export interface RunSkillResult extends SkillReplayResult {
  readonly log_file: string;
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

/**
 * Replays a skill as a recorded run (store row, run log, events) like any other. The rescue uses
 * FORGE_RESCUE_MODEL, else the run's model; with no model configured at all a guided replay still runs
 * and falls back past the rescue. Inputs are checked before a run is created. A replay that finds the
 * skill stale marks it stale in the store.
 */
export async function runSkill(runtime: ForgeRuntime, options: RunSkillOptions): Promise<RunSkillResult> {
  const { store, config } = runtime;
  const loaded = typeof options.skill === 'string' ? await loadSkill(runtime, options.skill) : undefined;
  const document = loaded?.document ?? (options.skill as SkillDocument);
  validateSkillInputs(document, options.inputs);
  const runModel = optionalModel(runtime, options.model);
  const rescueSlug = config.env['FORGE_RESCUE_MODEL']?.trim();
  const rescueModel = rescueSlug !== undefined && rescueSlug !== '' ? resolveModel(rescueSlug, config.env, 'FORGE_RESCUE_MODEL') : runModel;
  if (options.summarize === true && runModel === undefined) resolveModel(defaultModelSlug(config.env), config.env, 'FORGE_MODEL');

  const runId = newRunId();
  await store.runs.create({ id: runId, task: `skill ${document.name}: ${replayTaskText(document, options.inputs)}`, model: rescueModel?.slug ?? 'none', conversationId: null });
  const logFile = runLogPath(config.home, runId);
  const recorder = new RunRecorder(runtime.bus, runId, logFile, store);
  const emitter = createRunEmitter(runtime.bus, runId);
  const meter = new CostMeter(runId);
  if (options.match !== undefined) emitter.emit({ type: 'skill-match', decision: 'replay', skill: document.name, reason: options.match.reason, inputs: { ...options.match.inputs } });
  const utility = (model: ResolvedModel | undefined): UtilityModel | undefined => (model === undefined ? undefined : createUtilityModel(model, meter, emitter.emit));
  let result: SkillReplayResult;
  try {
    result = await replaySkill({
      document,
      inputs: options.inputs,
      mode: options.mode ?? 'auto',
      registry: runtime.registry,
      policy: runtime.policy,
      approvals: runtime.approvals,
      emitter,
      meter,
      toolContext: { fetch: runtime.fetch, utilityModel: undefined },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(rescueModel === undefined ? {} : { rescueModel: utility(rescueModel)! }),
      ...(options.summarize === true && runModel !== undefined ? { summaryModel: utility(runModel)! } : {}),
    });
  } finally {
    await recorder.close();
  }
  if (result.stale !== null && loaded !== undefined) await store.skills.setStatus(loaded.record.id, 'stale', result.stale);
  return { ...result, log_file: logFile };
}

/** What `forge run --skills` did: replayed a matching skill, or ran the full agent. */
export type SkillAwareRunResult = (RunSkillResult & { readonly replayed_skill: string }) | (RunTaskResult & { readonly replayed_skill: null });

/**
 * `forge run --skills`: when an active stored skill reads the task (see `matchSkill`), replay it instead
 * of running the full agent; otherwise run the agent. Either way the run's log opens with a `skill-match`
 * event giving the decision and its reason.
 */
export async function runTaskWithSkills(runtime: ForgeRuntime, options: RunTaskOptions): Promise<SkillAwareRunResult> {
  const documents: SkillDocument[] = [];
  for (const record of await runtime.store.skills.list()) {
    if (record.status !== 'active') continue;
    try {
      documents.push(parseSkillDocument(record.document));
    } catch {
      // An unreadable stored skill cannot match; `forge skill show` reports why.
    }
  }
  const match = matchSkill(options.task, documents);
  if (match.matched) {
    const replayed = await runSkill(runtime, {
      skill: match.skill.name,
      inputs: match.inputs,
      match: { reason: match.reason, inputs: match.inputs },
      ...(options.model === undefined ? {} : { model: options.model }),
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
