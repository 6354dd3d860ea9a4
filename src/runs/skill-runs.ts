import type { UtilityModel } from '../core/index.js';
import { createUtilityModel, type ResolvedModel } from '../llm/index.js';
import {
  extractSkillInputs,
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
import type { PreparedRun } from './prepared-run.js';
import { startedOrRefused } from './run-service.js';
import { runToolContext } from './run-tool-context.js';
import { runCredentials } from './run-credentials.js';
import { saveRunPolicy, validRunRules } from './run-policy.js';
import { resolveRuntimeModel } from './runtime-model.js';

export interface SkillReplayOptions {
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
  /**
   * One metered model call at the end: it writes the answer from the fresh results in the recorded
   * answer's form when the skill's answer template has values this replay cannot bind, else summarizes
   * the results. Without it a replay makes no model call for its answer.
   */
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
  /** The service key that asked for the run, when one did: its quota counts the run. */
  readonly apiKeyId?: string | null;
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

async function rescueModelFor(runtime: ModelSource, options: Pick<SkillReplayOptions, 'rescueModel'>, runModel: ResolvedModel | undefined): Promise<ResolvedModel | undefined> {
  if (options.rescueModel !== undefined) return options.rescueModel;
  const rescueSlug = runtime.config.env['FORGE_RESCUE_MODEL']?.trim();
  return rescueSlug !== undefined && rescueSlug !== '' ? resolveRuntimeModel(runtime, rescueSlug, 'FORGE_RESCUE_MODEL') : runModel;
}

/**
 * Checks a skill replay and makes it ready to start: the skill loads (by reference, pinned to its
 * version), given inputs validate, the models resolve, the run's rules validate, all before a run
 * exists. Started, it replays the skill as a recorded run (store row, run log, events) like any other.
 * The rescue uses FORGE_RESCUE_MODEL, else the run's model; with no model configured at all a guided
 * replay still runs and goes past the rescue (a write then refuses rather than guess). A replay that
 * finds the skill stale marks it stale in the store.
 */
export async function prepareSkillReplay(runtime: ForgeRuntime, options: SkillReplayOptions): Promise<PreparedRun<RunSkillResult>> {
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
  const record = {
    kind: 'skill',
    task: runtime.redactor.redactText(options.extractFrom?.task ?? `skill ${document.name}: ${replayTaskText(document, options.inputs)}`),
    model: rescueModel?.slug ?? 'none',
    userId: options.userId ?? null,
    apiKeyId: options.apiKeyId ?? null,
  } as const;
  return {
    record,
    ...(loaded === undefined ? {} : { pinned: `${loaded.record.name}@${loaded.record.version}` }),
    start: async (start) => {
      let extraction: InputExtraction | null = null;
      const handle = runtime.runs.start({
        ...record,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(start.queuedRunId === undefined ? {} : { queuedRunId: start.queuedRunId }),
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
            ...(options.summarize === true && runModel !== undefined ? { summaryModel: utility(runModel)!, answerModel: utility(runModel)! } : {}),
          };
          const missing = extraction?.missing ?? [];
          return missing.length > 0
            ? refuseReplay(replay, `the task does not say ${missing.map((name) => `"${name}"`).join(', ')}`, `Give ${missing.length === 1 ? 'it' : 'them'} yourself (forge skill run ${document.name} ${missing.map((name) => `--input ${name}=<value>`).join(' ')}), or run the task without --skills to use the full agent.`)
            : replaySkill(replay);
        },
      });
      await startedOrRefused(handle);
      const result = handle.result.then(async (replayed): Promise<RunSkillResult> => {
        if (replayed.stale !== null && loaded !== undefined) await runtime.store.skills.setStatus(loaded.record.id, 'stale', replayed.stale);
        return { ...replayed, log_file: handle.logFile, extraction };
      });
      return { runId: handle.runId, logFile: handle.logFile, result };
    },
  };
}
