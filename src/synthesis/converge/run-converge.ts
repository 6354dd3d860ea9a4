import { runLoop, type LoopContext, type LoopOptions, type LoopResult, type LoopRules } from '../../engine/index.js';
import type { RunState } from '../../core/index.js';
import type { ResolvedModel } from '../../llm/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import { synthesizeTool, type ToolRequest } from '../pipeline/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import { registerPromotedTool, toolOfEntry, type Toolbox } from '../toolbox/index.js';
import { CONVERGE_BUILTIN_NAMES, createConvergeBuiltins } from './converge-builtins.js';
import { checkConvergence } from './convergence-gate.js';
import { planChanged, unfinishedSteps, type PlanStep } from './plan.js';
import { renderStateBlock } from './state-block.js';

/** The turn cap: a backstop only, flagged loudly when it ends a run. */
export const DEFAULT_TURN_CAP = 25;

export const CONVERGE_SYSTEM_PROMPT = `You are Forge, an agent that solves tasks with tools and extends its own toolbox.
Each turn, call exactly one tool. Keep a plan with update_plan and mark steps done as you finish them.
When no tool covers a step, call request_tool with a precise contract; the new tool must pass an independent test before you can use it.
Prefer tools that return compact, structured data. When you have the answer, call final_answer.`;

export interface ConvergeRunOptions extends Omit<LoopOptions, 'maxIterations' | 'system'> {
  /** The agent's model; also the tool author. */
  readonly model: ResolvedModel;
  /** The test author; defaults to `model` (still its own conversation). */
  readonly testModel?: ResolvedModel;
  /**
   * The catalog. The run takes its tools from it once, when it starts; a tool the run promotes joins
   * the run's own set at once and is registered here for runs started later. The loop's own tools and
   * the tools it promotes are always in its set.
   */
  readonly registry: ToolRegistry;
  readonly toolbox: Toolbox;
  /**
   * Whose toolbox the run's syntheses go to: the account that runs it, whose runs alone are offered them
   * until an admin promotes them; null (the operator's runs) for the installation's, registered in the
   * catalog for every run started later.
   */
  readonly toolboxOwner?: string | null;
  readonly system?: string;
  /** Default `DEFAULT_TURN_CAP`. */
  readonly maxTurns?: number;
  /** Sandbox limits for verification runs. */
  readonly sandboxLimits?: Partial<SandboxLimits>;
}

export interface ConvergeRunResult extends LoopResult {
  readonly syntheses: number;
}

const isBuiltin = (name: string) => CONVERGE_BUILTIN_NAMES.includes(name as (typeof CONVERGE_BUILTIN_NAMES)[number]);

/**
 * The convergence rules for `runLoop`. Every turn the model must call exactly one tool (forced tool
 * choice, parallel calls off; extra calls are refused): `update_plan`, `request_tool` (runs the
 * synthesis pipeline), `final_answer`, or any tool of the run's set — all through dispatch. A tool the
 * run promotes joins its set (and the catalog, for runs started later); a concurrent run's promotion,
 * an MCP reconnect or a `--fresh` elsewhere never reaches it. After each turn the state block (plan and
 * toolbox) is re-sent and the halt rule (`checkConvergence`) is applied. Stops on `final_answer` or
 * `converged`; a cap halt is flagged in `warnings`. Its state (plan, streak, syntheses, warnings) is
 * checkpointed with the run's and restored from `restored` on resume.
 */
export function convergeRules(options: ConvergeRunOptions, context: LoopContext, restored: RunState['converge'], counters: { syntheses: number }): LoopRules {
  const { emitter, meter, registry, toolbox } = options;
  const owner = options.toolboxOwner ?? null;
  let plan: PlanStep[] = [...(restored?.plan ?? [])];
  let stableStreak = restored?.stable_streak ?? 0;
  counters.syntheses = restored?.syntheses ?? 0;
  const warnings: string[] = [...(restored?.warnings ?? [])];
  let answer: string | null = null;
  let changes = { toolboxChanged: false, planMutated: false, toolUsed: false };
  const signal = options.signal ?? new AbortController().signal;

  const ownTools = createConvergeBuiltins({
    updatePlan(steps) {
      if (!planChanged(plan, steps)) return 'The plan is unchanged.';
      plan = steps;
      changes.planMutated = true;
      emitter.emit({ type: 'plan-update', steps: plan });
      return `Plan updated: ${unfinishedSteps(plan)} of ${plan.length} steps unfinished.`;
    },
    async requestTool(request: ToolRequest) {
      const existing = await toolbox.get(request.name);
      const callable = context.tools.has(request.name) ? '; call it directly.' : ", but it is not in this run's tools.";
      // Another toolbox's tool is neither shown nor replaced: its name is simply taken.
      if (existing !== undefined && existing.owner !== owner && !(existing.owner === null && existing.status === 'promoted')) return `The name ${request.name} is taken; request the tool under another name.`;
      if (existing?.status === 'promoted') return `${request.name} already exists and is promoted${callable}`;
      if (existing === undefined && (context.tools.has(request.name) || registry.get(request.name) !== undefined)) return `${request.name} already exists (a built-in or MCP tool)${callable}`;
      if (isBuiltin(request.name)) return `${request.name} is reserved.`;
      counters.syntheses += 1;
      changes.toolboxChanged = true;
      const outcome = await synthesizeTool(request, {
        author: options.model,
        tester: options.testModel ?? options.model,
        toolbox,
        owner,
        emitter,
        meter,
        fetch: options.toolContext.fetch,
        signal,
        iteration: context.turn,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.sandboxLimits === undefined ? {} : { limits: options.sandboxLimits }),
      });
      if (outcome.flagged) warnings.push(`synthesis of ${request.name} failed after ${outcome.revisions} revisions`);
      if (outcome.status === 'failed') {
        return `${request.name} failed verification after ${outcome.revisions} revisions and is not available:\n- ${outcome.failures.join('\n- ')}`;
      }
      // Usable by this run at once, and by runs started from now on (the account's own, for an account's
      // tool); runs already going keep their own sets.
      const promoted = owner === null ? registerPromotedTool(registry, toolbox, outcome.entry) : toolOfEntry(toolbox, outcome.entry);
      if (promoted !== undefined) context.tools = context.tools.with([promoted]);
      return `${request.name} passed its adversarial test in the sandbox and was promoted (after ${outcome.revisions} revisions). Input schema: ${JSON.stringify(outcome.entry.input_schema)}`;
    },
    finalAnswer(text) {
      answer = text;
      return 'Answer recorded.';
    },
  });
  // Promoted tools the run cannot call are not shown as promoted: they belong to other runs' sets or were left out of its tool list.
  const stateBlock = async () =>
    renderStateBlock({ turn: context.turn, cap: context.cap, plan, tools: (await toolbox.visibleTo(owner)).filter((entry) => entry.status !== 'promoted' || context.tools.has(entry.name)) });

  return {
    kind: 'converge',
    ownTools,
    toolChoice: { type: 'required' },
    oneCallPerTurn: true,
    noCalls: 'reminder',
    firstMessage: async (task) => `${task}\n\n${await stateBlock()}`,
    afterTools(report) {
      if (report.outcomes.some((outcome) => outcome.ok && !isBuiltin(outcome.tool))) changes.toolUsed = true;
      return stateBlock();
    },
    afterTurn(report) {
      const turnChanges = changes;
      changes = { toolboxChanged: false, planMutated: false, toolUsed: false };
      if (answer !== null) return { halt: 'final_answer', answer };
      const verdict = checkConvergence({ stableStreak }, report.turn, turnChanges, unfinishedSteps(plan));
      stableStreak = verdict.stableStreak;
      emitter.emit({
        type: 'convergence-check',
        turn: report.turn,
        toolbox_stable: !turnChanges.toolboxChanged,
        plan_stable: !turnChanges.planMutated,
        tool_used: turnChanges.toolUsed,
        stable_streak: verdict.stableStreak,
        threshold: verdict.threshold,
      });
      return verdict.converged ? { halt: 'converged' } : undefined;
    },
    capHalt: (cap) => ({
      error: {
        name: 'TurnCapReached',
        message: `The run hit its turn cap (${cap}) without converging or a final answer. The cap is only a backstop: this usually means a prompt regression.`,
        hint: 'Inspect the run log; raise --max-iterations only if the task really needs more turns.',
      },
      warning: `halted by the turn cap (${cap}) without converging`,
    }),
    save: () => ({ plan, stable_streak: stableStreak, syntheses: counters.syntheses, warnings: [...warnings] }),
    warnings: () => warnings,
  };
}

/**
 * A convergence-gated run: `runLoop` with `convergeRules` (see there). Never throws for run-level
 * failures; a tool list naming unknown tools throws `UnknownToolsError` before the run starts.
 */
export async function runConverge(options: ConvergeRunOptions): Promise<ConvergeRunResult> {
  const counters = { syntheses: 0 };
  const result = await runLoop(
    { ...options, system: options.system ?? options.resume?.state.system ?? CONVERGE_SYSTEM_PROMPT, maxIterations: options.maxTurns ?? DEFAULT_TURN_CAP },
    (context) => convergeRules(options, context, options.resume?.state.converge ?? null, counters),
  );
  return { ...result, syntheses: counters.syntheses };
}
