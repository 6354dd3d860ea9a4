import type { UtilityModel } from '../core/index.js';
import { createUtilityModel, type ResolvedModel } from '../llm/index.js';
import {
  extractSkillInputs,
  matchSkillForTask,
  refuseReplay,
  replaySkill,
  replayTaskText,
  validateSkillInputs,
  type InputExtraction,
  type ReplayModeOption,
  type SkillDocument,
  type SkillReplayResult,
} from '../skills/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { runTask, type RunTaskOptions, type RunTaskResult } from './task-runs.js';
import { runCredentials } from './run-credentials.js';
import { saveRunPolicy, validRunRules } from './run-policy.js';
import { resolveRuntimeModel } from './runtime-model.js';
import { runToolContext } from './run-tool-context.js';

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
  /** The account the replay's run belongs to; none for the CLI's. */
  readonly userId?: string | null;
  /** The run's own policy rules (they only tighten), as for `runTask`. */
  readonly policyRules?: readonly unknown[];
}

export interface RunSkillResult extends SkillReplayResult {
  readonly log_file: string;
  /** How the inputs were read from the task, when they were (`forge run --skills`). */
  readonly extraction: InputExtraction | null;
}

type ModelSource = Pick<ForgeRuntime, 'config' | 'credentials'>;

async function optionalModel(runtime: ModelSource, explicit: string | ResolvedModel | undefined): Promise<ResolvedModel | undefined> {
  if (typeof explicit === 'object') return explicit;
  try {
    return await resolveRuntimeModel(runtime, explicit, explicit === undefined ? 'FORGE_MODEL' : '--model');
  } catch (error) {
    if (explicit !== undefined) throw error;
    return undefined;
  }
}

async function rescueModelFor(runtime: ModelSource, options: Pick<RunSkillOptions, 'rescueModel'>, runModel: ResolvedModel | undefined): Promise<ResolvedModel | undefined> {
  if (options.rescueModel !== undefined) return options.rescueModel;
  const rescueSlug = runtime.config.env['FORGE_RESCUE_MODEL']?.trim();
  return rescueSlug !== undefined && rescueSlug !== '' ? resolveRuntimeModel(runtime, rescueSlug, 'FORGE_RESCUE_MODEL') : runModel;
}

/**
 * Replays a skill as a recorded run (store row, run log, events) like any other. The rescue uses
 * FORGE_RESCUE_MODEL, else the run's model; with no model configured at all a guided replay still runs
 * and goes past the rescue (a write then refuses rather than guess). Given inputs are checked before a
 * run is created. A replay that finds the skill stale marks it stale in the store.
 */
export async function runSkill(runtime: ForgeRuntime, options: RunSkillOptions): Promise<RunSkillResult> {
  const loaded = typeof options.skill === 'string' ? await runtime.skills.load(options.skill) : undefined;
  const document = loaded?.document ?? (options.skill as SkillDocument);
  if (options.extractFrom === undefined) validateSkillInputs(document, options.inputs);
  // An account's replay uses the account's provider keys (see runCredentials).
  const models: ModelSource = { config: runtime.config, credentials: runCredentials(runtime, options.userId) };
  const runModel = await optionalModel(models, options.model);
  const rescueModel = await rescueModelFor(models, options, runModel);
  // A summary needs a model: resolving one again reports why there is none.
  if (options.summarize === true && runModel === undefined) await resolveRuntimeModel(models, undefined, 'FORGE_MODEL');
  const policyRules = options.policyRules === undefined ? undefined : validRunRules(options.policyRules);

  let extraction: InputExtraction | null = null;
  const handle = runtime.runs.start({
    kind: 'skill',
    task: runtime.redactor.redactText(options.extractFrom?.task ?? `skill ${document.name}: ${replayTaskText(document, options.inputs)}`),
    model: rescueModel?.slug ?? 'none',
    userId: options.userId ?? null,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    execute: async ({ runId, userId, emitter, meter, signal }): Promise<SkillReplayResult> => {
      await saveRunPolicy(runtime, runId, policyRules, options.userId);
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
        accountTools: await runtime.tools.accountTools(userId),
        policy: runtime.policy,
        approvals: runtime.approvals,
        emitter,
        meter,
        toolContext: { ...runToolContext(runtime, { userId }), utilityModel: undefined },
        callGuards: runtime.config.callGuards,
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
  if (result.stale !== null && loaded !== undefined) await runtime.store.skills.setStatus(loaded.record.id, 'stale', result.stale);
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
  // A broken stored skill cannot match; `forge skill list` shows why.
  const documents = (await runtime.skills.list()).flatMap((entry) => (entry.record.status === 'active' && entry.document !== null ? [entry.document] : []));
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
      ...(options.policyRules === undefined ? {} : { policyRules: options.policyRules }),
    });
    return { ...replayed, replayed_skill: match.skill.name };
  }
  const ran = await runTask(runtime, {
    ...options,
    preludeEvents: [...(options.preludeEvents ?? []), { type: 'skill-match', decision: 'fallback', skill: null, reason: match.reason, inputs: {} }],
  });
  return { ...ran, replayed_skill: null };
}
