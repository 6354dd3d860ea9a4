import type { LanguageModelV3ToolResultPart } from '@ai-sdk/provider';
import { buildSystemPrompt, finishRun, providerToolsFrom, streamMeteredModelTurn, type AgentRunResult, type LoopMessage, type RunStep } from '../../agent/index.js';
import {
  RunCancelledError,
  describeError,
  type ApprovalGate,
  type ErrorInfo,
  type HaltReason,
  type Policy,
  type RunStatus,
  type ToolContext,
  type TokenUsage,
} from '../../core/index.js';
import type { RunEmitter } from '../../events/index.js';
import type { CostMeter, ResolvedModel } from '../../llm/index.js';
import { dispatchToolCall, type DispatchOutcome, type ToolRegistry } from '../../tools/index.js';
import { synthesizeTool, type ToolRequest } from '../pipeline/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import { registerPromotedTool, type Toolbox } from '../toolbox/index.js';
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

export interface ConvergeRunOptions {
  readonly task: string;
  /** The agent's model; also the tool author. */
  readonly model: ResolvedModel;
  /** The test author; defaults to `model` (still its own conversation). */
  readonly testModel?: ResolvedModel;
  /**
   * The catalog. The run takes its tools from it once, when it starts; a tool the run promotes joins
   * the run's own set at once and is registered here for runs started later.
   */
  readonly registry: ToolRegistry;
  /**
   * The catalog tools this run may use, by exact name; default every tool in the catalog when the run
   * starts. A name the catalog lacks is an `UnknownToolsError` (listing what exists) before any model
   * call. The loop's own tools and the tools it promotes are always in its set.
   */
  readonly tools?: readonly string[];
  readonly toolbox: Toolbox;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  readonly toolContext: Omit<ToolContext, 'callId' | 'runId' | 'signal'>;
  readonly system?: string;
  /** Default `DEFAULT_TURN_CAP`. */
  readonly maxTurns?: number;
  readonly signal?: AbortSignal;
  readonly maxRetries?: number;
  /** Sandbox limits for verification runs. */
  readonly sandboxLimits?: Partial<SandboxLimits>;
  readonly onMessages?: (messages: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null }) => Promise<void>;
}

export interface ConvergeRunResult extends AgentRunResult {
  /** Things a reader must not miss: a cap halt, a synthesis that used up its revisions. */
  readonly warnings: readonly string[];
  readonly syntheses: number;
}

function toolResultPart(outcome: DispatchOutcome, name: string): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: outcome.callId,
    toolName: name,
    output: outcome.ok ? { type: 'text', value: outcome.output } : { type: 'error-text', value: outcome.output },
  };
}

/**
 * The convergence-gated loop. Every turn the model must call exactly one tool (forced tool choice,
 * parallel calls off; extra calls are refused): `update_plan`, `request_tool` (runs the synthesis
 * pipeline), `final_answer`, or any tool of the run's set — all through dispatch. The set is taken from
 * the catalog when the run starts and changes only by what this run promotes, so a concurrent run's
 * promotion, an MCP reconnect or a `--fresh` elsewhere never reaches it. After each turn the state block
 * (plan and toolbox) is re-sent and the halt rule (`checkConvergence`) is applied. Halts by
 * `final_answer`, `converged`, or the turn cap (flagged in `warnings` and `run-end`). Never throws for
 * run-level failures; a tool list naming unknown tools throws `UnknownToolsError` before the run starts.
 */
export async function runConverge(options: ConvergeRunOptions): Promise<ConvergeRunResult> {
  const started = performance.now();
  const { emitter, meter, registry, toolbox } = options;
  const cap = options.maxTurns ?? DEFAULT_TURN_CAP;
  const signal = options.signal ?? new AbortController().signal;
  const system = buildSystemPrompt(options.system ?? CONVERGE_SYSTEM_PROMPT);
  const messages: LoopMessage[] = [];
  const steps: RunStep[] = [];
  const warnings: string[] = [];
  let plan: PlanStep[] = [];
  let answer: string | null = null;
  let haltReason = 'cap' as HaltReason;
  let error: ErrorInfo | null = null;
  let syntheses = 0;
  let stableStreak = 0;
  let turn = 0;
  let changes = { toolboxChanged: false, planMutated: false, toolUsed: false };

  const builtins = createConvergeBuiltins({
    updatePlan(steps) {
      if (!planChanged(plan, steps)) return 'The plan is unchanged.';
      plan = steps;
      changes.planMutated = true;
      emitter.emit({ type: 'plan-update', steps: plan });
      return `Plan updated: ${unfinishedSteps(plan)} of ${plan.length} steps unfinished.`;
    },
    async requestTool(request: ToolRequest) {
      const existing = await toolbox.get(request.name);
      const callable = tools.has(request.name) ? '; call it directly.' : ", but it is not in this run's tools.";
      if (existing?.status === 'promoted') return `${request.name} already exists and is promoted${callable}`;
      if (existing === undefined && (tools.has(request.name) || registry.get(request.name) !== undefined)) return `${request.name} already exists (a built-in or MCP tool)${callable}`;
      if (CONVERGE_BUILTIN_NAMES.includes(request.name as (typeof CONVERGE_BUILTIN_NAMES)[number])) return `${request.name} is reserved.`;
      syntheses += 1;
      changes.toolboxChanged = true;
      const outcome = await synthesizeTool(request, {
        author: options.model,
        tester: options.testModel ?? options.model,
        toolbox,
        emitter,
        meter,
        fetch: options.toolContext.fetch,
        signal,
        iteration: turn,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.sandboxLimits === undefined ? {} : { limits: options.sandboxLimits }),
      });
      if (outcome.flagged) warnings.push(`synthesis of ${request.name} failed after ${outcome.revisions} revisions`);
      if (outcome.status === 'failed') {
        return `${request.name} failed verification after ${outcome.revisions} revisions and is not available:\n- ${outcome.failures.join('\n- ')}`;
      }
      // Usable by this run at once, and by runs started from now on; runs already going keep their own sets.
      const promoted = registerPromotedTool(registry, toolbox, outcome.entry);
      if (promoted !== undefined) tools = tools.with([promoted]);
      return `${request.name} passed its adversarial test in the sandbox and was promoted (after ${outcome.revisions} revisions). Input schema: ${JSON.stringify(outcome.entry.input_schema)}`;
    },
    finalAnswer(text) {
      answer = text;
      haltReason = 'final_answer';
      return 'Answer recorded.';
    },
  });
  // The run's set: the catalog as it is now, and the loop's own tools (which take their names over from any catalog tool).
  let tools = registry.snapshot(options.tools).with(builtins);
  // Promoted tools the run cannot call are not shown as promoted: they belong to other runs' sets or were left out of its tool list.
  const stateBlock = async () => renderStateBlock({ turn, cap, plan, tools: (await toolbox.list()).filter((entry) => entry.status !== 'promoted' || tools.has(entry.name)) });

  emitter.emit({ type: 'run-start', task: options.task, model: options.model.slug, max_iterations: cap, conversation_id: null, tools: tools.names() });
  const persist = async (added: LoopMessage[], details: { model: string | null; tokens: TokenUsage | null }) => {
    messages.push(...added);
    await options.onMessages?.(added, details);
  };

  try {
    await persist([{ role: 'user', content: [{ type: 'text', text: `${options.task}\n\n${await stateBlock()}` }] }], { model: null, tokens: null });
    while (turn < cap) {
      turn += 1;
      if (signal.aborted) throw new RunCancelledError(String(signal.reason ?? 'cancelled'));
      changes = { toolboxChanged: false, planMutated: false, toolUsed: false };
      const modelTurn = await streamMeteredModelTurn({
        model: options.model,
        system,
        messages,
        tools: providerToolsFrom(tools.specifications()),
        toolChoice: { type: 'required' },
        singleToolCall: true,
        signal,
        maxRetries: options.maxRetries ?? 2,
        emitter,
        meter,
        purpose: 'agent-step',
        iteration: turn,
      });
      const tokens = { input: modelTurn.record.inputTokens, output: modelTurn.record.outputTokens };
      if (modelTurn.text !== '') emitter.emit({ type: 'assistant-text', iteration: turn, text: modelTurn.text });
      const calls = modelTurn.toolCalls;
      await persist(
        [{ role: 'assistant', content: [...(modelTurn.text === '' ? [] : [{ type: 'text' as const, text: modelTurn.text }]), ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.callId, toolName: call.name, input: call.input ?? {} }))] }],
        { model: modelTurn.record.model, tokens },
      );
      const results: LanguageModelV3ToolResultPart[] = [];
      for (const [index, call] of calls.entries()) {
        if (index > 0) {
          results.push({ type: 'tool-result', toolCallId: call.callId, toolName: call.name, output: { type: 'error-text', value: 'Refused: exactly one tool call per turn; only the first was run.' } });
          continue;
        }
        const outcome = await dispatchToolCall(
          { name: call.name, input: call.input, callId: call.callId, iteration: turn },
          { tools, policy: options.policy, approvals: options.approvals, emitter, context: { ...options.toolContext, runId: emitter.runId, signal } },
        );
        if (outcome.ok && !CONVERGE_BUILTIN_NAMES.includes(outcome.tool as (typeof CONVERGE_BUILTIN_NAMES)[number])) changes.toolUsed = true;
        steps.push({ call_id: outcome.callId, iteration: turn, tool: outcome.tool, input: outcome.input, ok: outcome.ok, output: outcome.output, error: outcome.ok ? null : outcome.error, duration_ms: outcome.durationMs });
        results.push(toolResultPart(outcome, call.name));
      }
      const state = await stateBlock();
      const reminder = calls.length === 0 ? 'You called no tool. ' : '';
      await persist(
        [...(results.length === 0 ? [] : [{ role: 'tool' as const, content: results }]), { role: 'user', content: [{ type: 'text', text: `${reminder}${state}` }] }],
        { model: null, tokens: null },
      );
      if (haltReason === 'final_answer') break;
      const verdict = checkConvergence({ stableStreak }, turn, changes, unfinishedSteps(plan));
      stableStreak = verdict.stableStreak;
      emitter.emit({
        type: 'convergence-check',
        turn,
        toolbox_stable: !changes.toolboxChanged,
        plan_stable: !changes.planMutated,
        tool_used: changes.toolUsed,
        stable_streak: verdict.stableStreak,
        threshold: verdict.threshold,
      });
      if (verdict.converged) {
        haltReason = 'converged';
        break;
      }
    }
  } catch (caught) {
    error = describeError(caught);
    haltReason = caught instanceof RunCancelledError || signal.aborted ? 'cancelled' : 'error';
  }

  if (haltReason === 'cap') {
    error = {
      name: 'TurnCapReached',
      message: `The run hit its turn cap (${cap}) without converging or a final answer. The cap is only a backstop: this usually means a prompt regression.`,
      hint: 'Inspect the run log; raise --max-iterations only if the task really needs more turns.',
    };
    warnings.unshift(`halted by the turn cap (${cap}) without converging`);
  }
  const status: RunStatus = haltReason === 'final_answer' || haltReason === 'converged' ? 'completed' : haltReason === 'cancelled' ? 'cancelled' : 'failed';
  const summary = finishRun(emitter, meter, { status, haltReason, answer, error, startedAt: started, warnings });
  return {
    ...summary,
    steps,
    warnings,
    syntheses,
  };
}
