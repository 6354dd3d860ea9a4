import { describeError, type AnyTool, type ApprovalGate, type ErrorInfo, type Policy, type ToolContext, type UtilityModel } from '../../core/index.js';
import { finishRun, type RunSummary } from '../../engine/index.js';
import type { RunEmitter } from '../../events/index.js';
import type { CostMeter } from '../../llm/index.js';
import { CallGuards, dispatchToolCall, readableOutput, type CallGuardSettings, type ToolRegistry } from '../../tools/index.js';
import type { SkillDocument } from '../document/skill-document.js';
import { fillTemplate } from '../document/templates.js';
import { outputContractViolations, stepContractViolations } from '../output-contract.js';
import { resultData } from '../result-data.js';
import { SkillModeError, SkillRefusedError, SkillResolutionError, SkillStaleError } from '../skill-errors.js';
import { toolSchemaProblems } from '../skill-health.js';
import { stepSideEffect } from '../step-side-effect.js';
import { dependentValueName, dependentValueNames, validateSkillInputs, type SkillInputs } from '../skill-inputs.js';
import { modelChooser, type Chooser } from './rescue-choice.js';
import { replayAnswer, type AnswerSource } from './replay-answer.js';
import type { Resolution } from './resolution.js';
import { resolveStepInput, restsOnUnproven, type ReplayState } from './resolve-step.js';
import { writeGateProblems } from './write-gate.js';

/** `auto` replays deterministically when every value is known up front, guided otherwise. */
export type ReplayModeOption = 'auto' | 'deterministic' | 'guided';
export type ReplayMode = 'deterministic' | 'guided';

export interface SkillReplayOptions {
  readonly document: SkillDocument;
  /** Raw inputs by name (variables, and overrides of step values such as `steps[1].url`). */
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly mode?: ReplayModeOption;
  /** The request in the user's own words (`forge run --skills`), shown to the rescue; default the rendered task template. */
  readonly request?: string;
  /** Resolve every value and run the reads, but make no write: report what each write would send. */
  readonly dryRun?: boolean;
  /** The catalog the replay takes its tools from, once, when it starts; every step resolves among those. */
  readonly registry: ToolRegistry;
  /** The run's account's own toolbox tools, offered besides the catalog's. */
  readonly accountTools?: readonly AnyTool[];
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly toolContext: Omit<ToolContext, 'callId' | 'runId' | 'signal'>;
  /** How the replay's tool calls are guarded (result cache, failure blocking, rate limits, timeouts); none when absent. */
  readonly callGuards?: CallGuardSettings;
  readonly signal?: AbortSignal;
  /** The rescue model (metered). Never consulted in deterministic mode. */
  readonly rescueModel?: UtilityModel;
  /** Chooses among candidates instead of the rescue model (`forge skill test` answers from the recording). */
  readonly chooser?: Chooser;
  /** When given, one model call summarizes the fresh results at the end (unless `answerModel` wrote the answer). */
  readonly summaryModel?: UtilityModel;
  /**
   * Writes the answer (one metered call) when the skill's answer template has a value this replay cannot
   * bind; without it such a replay answers with its results and says so. Never called when every value binds.
   */
  readonly answerModel?: UtilityModel;
}

/** One replayed step as `--json` reports it. */
export interface ReplayStepReport {
  readonly index: number;
  readonly tool: string;
  readonly side_effect: 'read' | 'write';
  /** False for a write a dry run resolved but did not make. */
  readonly executed: boolean;
  readonly arguments: Record<string, unknown>;
  readonly ok: boolean;
  /** The fresh output of the tool as a person reads it (no boundary tags, JSON pretty-printed), or the error text; empty when not executed. */
  readonly output: string;
  readonly error: ErrorInfo | null;
  readonly duration_ms: number;
  readonly resolutions: readonly Resolution[];
}

/** A write the replay made (or, in a dry run, would make): exactly what was sent, and whether it worked. */
export interface ReplayWrite {
  readonly step: number;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly made: boolean;
  /** Whether the tool accepted it; null when it was not made. */
  readonly ok: boolean | null;
  readonly error: ErrorInfo | null;
}

/**
 * What a replay reports: the documented `--json` shape (`mode, llm_calls, tokens, steps[]`, …). Its
 * `answer` is of the same kind as the recorded run's: the skill's answer template bound to this replay's
 * values (see `replayAnswer`; `answer_source` says how it was made), or the summary when one was asked
 * for; never a recorded value, and never wrapped in the model's untrusted-content boundary.
 */
export interface SkillReplayResult extends RunSummary {
  readonly skill: string;
  readonly mode: ReplayMode;
  readonly dry_run: boolean;
  readonly summary: string | null;
  /** The answer's values for this replay by name (typed outputs of an agent with outputs); empty when it did not complete. */
  readonly outputs: Record<string, unknown>;
  /** How the answer was made; null when there is none. */
  readonly answer_source: AnswerSource | null;
  /** Why the answer is not the bound template (values left unbound, no template), when it is not. */
  readonly answer_note: string | null;
  /** Why the skill became stale during this replay, if it did. */
  readonly stale: string | null;
  readonly steps: readonly ReplayStepReport[];
  /** Every write, in order: a replay that stops after some writes says exactly which were made. */
  readonly writes: readonly ReplayWrite[];
  /**
   * Why the replay refused, if it did: before a write (the step, one reason per unproven value), or
   * before anything ran (step and tool null: the task did not say a required input).
   */
  readonly refusal: { readonly step: number | null; readonly tool: string | null; readonly reasons: readonly string[] } | null;
}

const SUMMARY_MAX_OUTPUT_TOKENS = 400;

function chooseMode(document: SkillDocument, inputs: SkillInputs, requested: ReplayModeOption): ReplayMode {
  const unresolved = dependentValueNames(document).filter((name) => !Object.hasOwn(inputs.overrides, name));
  if (requested === 'guided') return 'guided';
  if (unresolved.length === 0) return 'deterministic';
  if (requested === 'auto') return 'guided';
  throw new SkillModeError(
    `Skill "${document.name}" cannot replay deterministically: ${unresolved.join(', ')} ${unresolved.length === 1 ? 'depends' : 'depend'} on fresh tool results.`,
    unresolved,
    `Use --mode guided (or auto), or supply ${unresolved.map((name) => `--input ${name}=<value>`).join(' ')}.`,
  );
}

/** The rendered task a replay stands for: the template with the inputs filled in. */
export function replayTaskText(document: SkillDocument, variables: Readonly<Record<string, unknown>>): string {
  return fillTemplate(document.task_template, variables);
}

function refusalHint(document: SkillDocument, index: number, resolutions: readonly Resolution[]): string {
  const unproven = resolutions.filter((resolution) => !resolution.proven).map((resolution) => resolution.name);
  const examples = unproven.slice(0, 2).map((name) => (name.startsWith('steps[') ? name : dependentValueName(index, name)));
  return unproven.length === 0
    ? 'The state this write relied on changed since recording; check it, or run the task with the full agent (forge run).'
    : `Give the value yourself (${examples.map((name) => `--input ${name}=<value>`).join(' ')}), pin an argument that never changes with \`forge skill edit ${document.name} --constant <steps[i].path>\`, or run the task with the full agent (forge run).`;
}

/**
 * Replays a skill as a run of its own, with the tools the catalog holds when it starts: `run-start`,
 * then per step a `skill-step` event (its final arguments, whether it writes, and how each value was
 * resolved) and the tool call itself through `dispatchToolCall` (policy, approvals, capping and the
 * untrusted boundary apply as in any run), then `run-end` with the model calls the replay made, counted
 * by the meter. A deterministic replay is
 * given no model at all. Before anything runs, the tools' schemas are checked against the recording;
 * each fresh result is checked against its step's output contract before the next step runs, so a
 * skill found stale stops before any later write. A step that writes runs only when every argument is
 * proven for this replay and the states it relied on still hold; otherwise the replay stops before it,
 * `refused`, naming each value and why. Never throws for replay failures: the result says what happened.
 */
export async function replaySkill(options: SkillReplayOptions): Promise<SkillReplayResult> {
  const started = performance.now();
  const { document, emitter, meter } = options;
  const tools = options.registry.snapshot(undefined, options.accountTools);
  const signal = options.signal ?? new AbortController().signal;
  const dryRun = options.dryRun === true;
  const steps: ReplayStepReport[] = [];
  const writes: ReplayWrite[] = [];
  let mode: ReplayMode = 'guided';
  let error: ErrorInfo | null = null;
  let stale: string | null = null;
  let summary: string | null = null;
  let answered: Awaited<ReturnType<typeof replayAnswer>> | null = null;
  let lastOutput = '';
  let refusal: SkillReplayResult['refusal'] = null;
  let dryRunStop: string | null = null;
  const markStale = (reason: string) => {
    stale = reason;
    emitter.emit({ type: 'skill-stale', skill: document.name, reason });
  };

  emitter.emit({
    type: 'run-start',
    task: `skill ${document.name}: ${replayTaskText(document, options.inputs)}`,
    model: options.rescueModel?.slug ?? 'none',
    max_iterations: 1,
    conversation_id: null,
    tools: tools.names(),
  });
  try {
    const inputs = validateSkillInputs(document, options.inputs);
    mode = chooseMode(document, inputs, options.mode ?? 'auto');
    const problems = toolSchemaProblems(document, tools);
    if (problems.length > 0) {
      markStale(problems.join('; '));
      throw new SkillStaleError(document.name, problems.join('; '));
    }
    const guards = options.callGuards === undefined ? undefined : new CallGuards(options.callGuards);
    const dispatch = (index: number, input: Record<string, unknown>, callId: string) =>
      dispatchToolCall(
        { name: document.steps[index]!.tool, input, callId, iteration: null },
        { tools, policy: options.policy, approvals: options.approvals, emitter, context: { ...options.toolContext, runId: emitter.runId, signal }, ...(guards === undefined ? {} : { guards }) },
      );
    // Reads run to show a rescue what bare candidates are; the step then reuses the outcome of its own input.
    const probed = new Map<string, Awaited<ReturnType<typeof dispatch>>>();
    const probeKey = (index: number, input: unknown) => `${index}:${JSON.stringify(input)}`;
    const state: ReplayState = {
      document,
      inputs,
      results: new Map(),
      tainted: new Set(),
      selections: new Map(),
      givenValues: new Map(),
      task: options.request ?? replayTaskText(document, inputs.variables),
      chooser: mode === 'deterministic' ? undefined : (options.chooser ?? (options.rescueModel === undefined ? undefined : modelChooser(options.rescueModel))),
      signal,
      probeStep: async (index, input) => {
        if (stepSideEffect(document.steps[index]!, tools.get(document.steps[index]!.tool), input) !== 'read') return undefined;
        const outcome = await dispatch(index, input, `step_${index}_probe_${probed.size + 1}`);
        probed.set(probeKey(index, input), outcome);
        return outcome.ok ? resultData(outcome.output) : undefined;
      },
    };
    for (const [index, step] of document.steps.entries()) {
      const resolved = await resolveStepInput(state, index);
      const sideEffect = stepSideEffect(step, tools.get(step.tool), resolved.ok ? resolved.input : undefined);
      if (!resolved.ok && dryRun && resolved.afterSkippedWrite) {
        dryRunStop = `step ${index} (${step.tool}) needs the result of a write this dry run did not make; nothing after it was resolved`;
        break;
      }
      if (!resolved.ok) {
        const name = dependentValueName(index, resolved.argument);
        if (sideEffect === 'write') {
          refusal = { step: index, tool: step.tool, reasons: [`${name}: ${resolved.reason}`] };
          throw new SkillRefusedError(document.name, index, step.tool, refusal.reasons, `Give it yourself with --input ${name}=<value>, or run the task with the full agent (forge run).`);
        }
        throw new SkillResolutionError(document.name, name, resolved.reason);
      }
      const { input, resolutions } = resolved;
      const gate = sideEffect === 'write' ? writeGateProblems(step, resolutions, state.results) : [];
      const executed = gate.length === 0 && !(dryRun && sideEffect === 'write');
      emitter.emit({
        type: 'skill-step',
        skill: document.name,
        step: index,
        tool: step.tool,
        arguments: { ...input },
        side_effect: sideEffect,
        executed,
        resolutions: resolutions.map((resolution) => ({
          name: resolution.name,
          strategy: resolution.strategy,
          value: resolution.value,
          because: resolution.because,
          proven: resolution.proven,
          candidates: resolution.candidates,
          ...(resolution.scores.length === 0 ? {} : { scores: resolution.scores.map((entry) => ({ value: entry.value, score: entry.score })) }),
          ...(resolution.rejections.length === 0 ? {} : { rejections: [...resolution.rejections] }),
        })),
      });
      if (gate.length > 0) {
        refusal = { step: index, tool: step.tool, reasons: gate };
        throw new SkillRefusedError(document.name, index, step.tool, gate, refusalHint(document, index, resolutions));
      }
      if (!executed) {
        steps.push({ index, tool: step.tool, side_effect: sideEffect, executed: false, arguments: { ...input }, ok: true, output: '', error: null, duration_ms: 0, resolutions });
        writes.push({ step: index, tool: step.tool, arguments: { ...input }, made: false, ok: null, error: null });
        continue;
      }
      const outcome = probed.get(probeKey(index, input)) ?? (await dispatch(index, input, `step_${index}`));
      steps.push({ index, tool: outcome.tool, side_effect: sideEffect, executed: true, arguments: { ...input }, ok: outcome.ok, output: readableOutput(outcome.output), error: outcome.ok ? null : outcome.error, duration_ms: outcome.durationMs, resolutions });
      lastOutput = outcome.output;
      if (sideEffect === 'write') writes.push({ step: index, tool: outcome.tool, arguments: { ...input }, made: true, ok: outcome.ok, error: outcome.ok ? null : outcome.error });
      if (!outcome.ok) {
        error = outcome.error;
        break;
      }
      const result = resultData(outcome.output);
      state.results.set(index, result);
      if (restsOnUnproven(resolutions)) state.tainted.add(index);
      const violations = stepContractViolations(document.output_contract, index, result);
      if (violations.length > 0) {
        markStale(`output contract failed: ${violations.join('; ')}`);
        throw new SkillStaleError(document.name, `output contract failed: ${violations.join('; ')}`);
      }
    }
    if (error === null && !dryRun) {
      const violations = outputContractViolations(document.output_contract, document.steps.map((_, index) => state.results.get(index)));
      if (violations.length > 0) {
        markStale(`output contract failed: ${violations.join('; ')}`);
        error = new SkillStaleError(document.name, `output contract failed: ${violations.join('; ')}`).toJSON();
      }
    }
    if (error === null && !dryRun) {
      answered = await replayAnswer({
        document,
        results: document.steps.map((_, index) => state.results.get(index)),
        lastOutput,
        inputs: inputs.variables,
        task: state.task,
        ...(options.answerModel === undefined ? {} : { answerModel: options.answerModel }),
        signal,
      });
    }
    if (error === null && !dryRun && options.summaryModel !== undefined && answered?.source !== 'model') {
      summary = await options.summaryModel.complete({
        system: 'Summarize the tool output for the task in a few sentences. Use only what the output says.',
        prompt: `Task: ${state.task}\n\nTool output:\n${lastOutput}`,
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
        purpose: 'skill-summary',
        signal,
      });
    }
  } catch (caught) {
    error = describeError(caught);
    if (caught instanceof SkillStaleError && stale === null) markStale(caught.reason);
  }
  const refused = refusal !== null;
  const failed = error !== null;
  const summaryOfRun = finishRun(emitter, meter, {
    status: refused ? 'refused' : failed ? 'failed' : 'completed',
    haltReason: refused ? 'refused' : failed ? 'error' : 'final_answer',
    answer: failed ? null : dryRun ? dryRunAnswer(writes, dryRunStop) : (summary ?? answered?.answer ?? null),
    error,
    startedAt: started,
  });
  const answerSource: AnswerSource | null = failed ? null : dryRun ? 'dry-run' : summary !== null ? 'summary' : (answered?.source ?? null);
  return { ...summaryOfRun, skill: document.name, mode, dry_run: dryRun, summary, outputs: failed ? {} : (answered?.outputs ?? {}), answer_source: answerSource, answer_note: failed ? null : (answered?.note ?? null), stale, steps, writes, refusal };
}

/**
 * A replay that refuses before any step runs (its inputs could not all be read from the task): the run
 * opens and closes `refused` with the reason, and nothing is called.
 */
export function refuseReplay(options: Pick<SkillReplayOptions, 'document' | 'inputs' | 'emitter' | 'meter' | 'registry' | 'rescueModel' | 'dryRun'>, reason: string, hint: string): SkillReplayResult {
  const started = performance.now();
  const { document, emitter } = options;
  emitter.emit({ type: 'run-start', task: `skill ${document.name}: ${replayTaskText(document, options.inputs)}`, model: options.rescueModel?.slug ?? 'none', max_iterations: 1, conversation_id: null, tools: options.registry.names() });
  const error = new SkillRefusedError(document.name, null, null, [reason], hint);
  const summary = finishRun(emitter, options.meter, { status: 'refused', haltReason: 'refused', answer: null, error: error.toJSON(), startedAt: started });
  return { ...summary, skill: document.name, mode: 'guided', dry_run: options.dryRun === true, summary: null, outputs: {}, answer_source: null, answer_note: null, stale: null, steps: [], writes: [], refusal: { step: null, tool: null, reasons: [reason] } };
}

function dryRunAnswer(writes: readonly ReplayWrite[], stop: string | null): string {
  const made = writes.length === 0 ? 'Dry run: this replay makes no writes.' : `Dry run: this replay would make ${writes.length} write${writes.length === 1 ? '' : 's'}:\n${writes.map((write) => `  step ${write.step} ${write.tool} ${JSON.stringify(write.arguments)}`).join('\n')}`;
  return stop === null ? made : `${made}\nStopped: ${stop}.`;
}
