import {
  describeError,
  type ApprovalGate,
  type ErrorInfo,
  type Policy,
  type ToolContext,
  type UtilityModel,
} from '../../core/index.js';
import { finishRun, type RunSummary } from '../../agent/index.js';
import type { RunEmitter } from '../../events/index.js';
import type { CostMeter } from '../../llm/index.js';
import { dispatchToolCall, type ToolRegistry } from '../../tools/index.js';
import { parseJsonPath, setAtPath } from '../json-path.js';
import { outputContractViolations } from '../output-contract.js';
import { fillTemplate, type SkillDocument } from '../skill-document.js';
import { SkillModeError, SkillResolutionError, SkillStaleError } from '../skill-errors.js';
import { toolSchemaProblems } from '../skill-health.js';
import { dependentValueName, dependentValueNames, validateSkillInputs, type SkillInputs } from '../skill-inputs.js';
import { plainJson } from '../tool-output.js';
import type { Resolution } from './resolution.js';
import { resolveDependentValue } from './resolve-dependent-value.js';

/** `auto` replays deterministically when every value is known up front, guided otherwise. */
export type ReplayModeOption = 'auto' | 'deterministic' | 'guided';
export type ReplayMode = 'deterministic' | 'guided';

export interface SkillReplayOptions {
  readonly document: SkillDocument;
  /** Raw inputs by name (variables, and overrides of dependent values such as `steps[1].url`). */
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly mode?: ReplayModeOption;
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly toolContext: Omit<ToolContext, 'callId' | 'runId' | 'signal'>;
  readonly signal?: AbortSignal;
  /** The rescue model (metered). Never consulted in deterministic mode. */
  readonly rescueModel?: UtilityModel;
  /** When given, one model call summarizes the fresh results at the end. */
  readonly summaryModel?: UtilityModel;
}

/** One replayed step as `--json` reports it. */
export interface ReplayStepReport {
  readonly index: number;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly ok: boolean;
  /** The fresh output of the tool (as a model would see it), or the error text. */
  readonly output: string;
  readonly error: ErrorInfo | null;
  readonly duration_ms: number;
  readonly resolutions: readonly Resolution[];
}

/** What a replay reports: the documented `--json` shape (`mode, llm_calls, tokens, steps[]`, …). */
/** `answer` is the summary when one was asked for, otherwise the last step's fresh output; never a recorded answer. */
export interface SkillReplayResult extends RunSummary {
  readonly skill: string;
  readonly mode: ReplayMode;
  readonly summary: string | null;
  /** Why the skill became stale during this replay, if it did. */
  readonly stale: string | null;
  readonly steps: readonly ReplayStepReport[];
}

const SUMMARY_MAX_OUTPUT_TOKENS = 400;

function chooseMode(document: SkillDocument, inputs: SkillInputs, requested: ReplayModeOption): ReplayMode {
  const unresolved = dependentValueNames(document).filter((name) => !(name in inputs.overrides));
  if (requested === 'guided') return 'guided';
  if (unresolved.length === 0) return 'deterministic';
  if (requested === 'auto') return 'guided';
  throw new SkillModeError(
    `Skill "${document.name}" cannot replay deterministically: ${unresolved.join(', ')} ${unresolved.length === 1 ? 'depends' : 'depend'} on fresh tool results.`,
    unresolved,
    `Use --mode guided (or auto), or supply ${unresolved.map((name) => `--input ${name}=<value>`).join(' ')}.`,
  );
}

interface StepInputContext {
  readonly inputs: SkillInputs;
  readonly results: readonly unknown[];
  readonly steps: readonly ReplayStepReport[];
  readonly task: string;
  readonly rescue: UtilityModel | undefined;
  readonly signal: AbortSignal;
}

/** The input of one step with every value filled in, and how each non-constant value was resolved. */
async function resolveStepInput(document: SkillDocument, index: number, context: StepInputContext): Promise<{ input: Record<string, unknown>; resolutions: Resolution[] }> {
  const { inputs } = context;
  const step = document.steps[index]!;
  const input: Record<string, unknown> = {};
  const resolutions: Resolution[] = [];
  for (const { path, binding } of step.arguments) {
    let value: unknown;
    switch (binding.kind) {
      case 'constant':
        value = binding.value;
        break;
      case 'variable':
        value = inputs.variables[binding.name];
        resolutions.push({ name: binding.name, strategy: 'user_input', value, candidates: 0, scores: [], rejections: [] });
        break;
      case 'template':
        value = fillTemplate(binding.template, inputs.variables);
        resolutions.push({ name: path, strategy: 'user_input', value, candidates: 0, scores: [], rejections: [] });
        break;
      default: {
        const name = dependentValueName(index, path);
        const outcome = await resolveDependentValue(binding, {
          name,
          override: inputs.overrides[name],
          results: context.results,
          // URL tokens should match what the producing step asked for (e.g. the search query) and the inputs.
          query: [...context.steps[binding.step]!.resolutions.map((resolution) => String(resolution.value)), ...Object.values(inputs.variables).map(String)].join(' '),
          variables: inputs.variables,
          recordedVariables: document.recording.inputs,
          task: context.task,
          tool: step.tool,
          rescue: context.rescue,
          signal: context.signal,
        });
        if (!outcome.ok) throw new SkillResolutionError(document.name, name, outcome.reason);
        resolutions.push(outcome.resolution);
        value = outcome.resolution.value;
      }
    }
    setAtPath(input, parseJsonPath(path) as (string | number)[], value);
  }
  return { input, resolutions };
}

/** The rendered task a replay stands for: the template with the inputs filled in. */
export function replayTaskText(document: SkillDocument, variables: Readonly<Record<string, unknown>>): string {
  return fillTemplate(document.task_template, variables);
}

/**
 * Replays a skill as a run of its own: `run-start`, then per step a `skill-step` event (its final
 * arguments and how each value was resolved) and the tool call itself through `dispatchToolCall`
 * (policy, approvals, capping and the untrusted boundary apply as in any run), then `run-end` with the
 * model calls the replay made, counted by the meter. A deterministic replay is given no model at all.
 * Before anything runs, the tools' schemas are checked against the recording; afterwards the results
 * are checked against the output contract. Either failure emits `skill-stale` and is reported in
 * `stale`. Never throws for replay failures: the result says what happened.
 */
export async function replaySkill(options: SkillReplayOptions): Promise<SkillReplayResult> {
  const started = performance.now();
  const { document, emitter, meter, registry } = options;
  const signal = options.signal ?? new AbortController().signal;
  const steps: ReplayStepReport[] = [];
  const results: unknown[] = [];
  let mode: ReplayMode = 'guided';
  let error: ErrorInfo | null = null;
  let stale: string | null = null;
  let summary: string | null = null;
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
    tools: registry.names(),
  });
  try {
    const inputs = validateSkillInputs(document, options.inputs);
    mode = chooseMode(document, inputs, options.mode ?? 'auto');
    const problems = toolSchemaProblems(document, registry);
    if (problems.length > 0) {
      markStale(problems.join('; '));
      throw new SkillStaleError(document.name, problems.join('; '));
    }
    const task = replayTaskText(document, inputs.variables);
    const rescue = mode === 'deterministic' ? undefined : options.rescueModel;
    for (const [index, step] of document.steps.entries()) {
      const { input, resolutions } = await resolveStepInput(document, index, { inputs, results, steps, task, rescue, signal });
      emitter.emit({
        type: 'skill-step',
        skill: document.name,
        step: index,
        tool: step.tool,
        arguments: input,
        resolutions: resolutions.map((resolution) => ({
          name: resolution.name,
          strategy: resolution.strategy,
          value: resolution.value,
          candidates: resolution.candidates,
          ...(resolution.scores.length === 0 ? {} : { scores: resolution.scores.map((entry) => ({ value: entry.value, score: entry.score })) }),
          ...(resolution.rejections.length === 0 ? {} : { rejections: [...resolution.rejections] }),
        })),
      });
      const outcome = await dispatchToolCall(
        { name: step.tool, input, callId: `step_${index}`, iteration: null },
        { registry, policy: options.policy, approvals: options.approvals, emitter, context: { ...options.toolContext, runId: emitter.runId, signal } },
      );
      steps.push({
        index,
        tool: outcome.tool,
        arguments: input,
        ok: outcome.ok,
        output: outcome.output,
        error: outcome.ok ? null : outcome.error,
        duration_ms: outcome.durationMs,
        resolutions,
      });
      if (!outcome.ok) {
        error = outcome.error;
        break;
      }
      results.push(plainJson(outcome.value));
    }
    if (error === null) {
      const violations = outputContractViolations(document.output_contract, results);
      if (violations.length > 0) {
        markStale(`output contract failed: ${violations.join('; ')}`);
        error = new SkillStaleError(document.name, `output contract failed: ${violations.join('; ')}`).toJSON();
      }
    }
    if (error === null && options.summaryModel !== undefined) {
      summary = await options.summaryModel.complete({
        system: 'Summarize the tool output for the task in a few sentences. Use only what the output says.',
        prompt: `Task: ${task}\n\nTool output:\n${steps.at(-1)?.output ?? ''}`,
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
        purpose: 'skill-summary',
        signal,
      });
    }
  } catch (caught) {
    error = describeError(caught);
    if (caught instanceof SkillStaleError && stale === null) markStale(caught.reason);
  }
  const failed = error !== null;
  const summaryOfRun = finishRun(emitter, meter, {
    status: failed ? 'failed' : 'completed',
    haltReason: failed ? 'error' : 'final_answer',
    answer: failed ? null : (summary ?? steps.at(-1)?.output ?? null),
    error,
    startedAt: started,
  });
  return { ...summaryOfRun, skill: document.name, mode, summary, stale, steps };
}
