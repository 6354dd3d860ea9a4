import type { TokenUsage } from '../core/index.js';
import { addCosts } from '../llm/index.js';
import type { RunTotals, SynthesisTotals, UsageTotals } from './run-totals.js';

/** Many runs added up: what `forge stats` reports across run logs. */
export interface AggregateTotals extends UsageTotals {
  readonly runs: number;
  /** Convergence quality: how runs ended. Unfinished runs count under `unfinished`. */
  readonly halts_by_reason: Readonly<Record<string, number>>;
  readonly tool_calls: number;
  readonly tool_errors: number;
  readonly per_model: Readonly<Record<string, UsageTotals>>;
  readonly synthesis: {
    /** Tools drafted by the synthesis pipeline. */
    readonly drafted: number;
    readonly promoted: number;
    readonly failed: number;
    /** Drafts that failed at least one verification: bugs the gate caught. */
    readonly caught: number;
    /** caught ÷ drafted; null without drafts. */
    readonly catch_rate: number | null;
    /** Calls of synthesized tools in any of the runs. */
    readonly tool_uses: number;
    /** tool uses ÷ syntheses; null without syntheses. */
    readonly reuse_ratio: number | null;
    /** Cost and outcome per synthesized tool (a tool drafted twice adds up). */
    readonly per_tool: Readonly<Record<string, UsageTotals & { readonly status: SynthesisTotals['status'] }>>;
  };
}

function sumUsage(left: UsageTotals | undefined, right: UsageTotals): UsageTotals {
  const tokens: TokenUsage = { input: (left?.tokens.input ?? 0) + right.tokens.input, output: (left?.tokens.output ?? 0) + right.tokens.output };
  return { llm_calls: (left?.llm_calls ?? 0) + right.llm_calls, tokens, cost_usd: addCosts(left === undefined ? 0 : left.cost_usd, right.cost_usd) };
}

/** Adds up the totals of several runs, including the synthesis figures only a series of runs shows (reuse). */
export function aggregateTotals(runs: readonly RunTotals[]): AggregateTotals {
  let overall: UsageTotals = { llm_calls: 0, tokens: { input: 0, output: 0 }, cost_usd: 0 };
  // Keyed by names from run logs: records without a prototype keep `__proto__` or `constructor` ordinary keys.
  const halts = Object.create(null) as Record<string, number>;
  const perModel = Object.create(null) as Record<string, UsageTotals>;
  const perTool = Object.create(null) as Record<string, UsageTotals & { status: SynthesisTotals['status'] }>;
  let toolCalls = 0;
  let toolErrors = 0;
  let drafted = 0;
  let caught = 0;
  for (const run of runs) {
    overall = sumUsage(overall, run);
    const halt = run.halt_reason ?? 'unfinished';
    halts[halt] = (halts[halt] ?? 0) + 1;
    toolCalls += run.tool_calls;
    toolErrors += run.tool_errors;
    for (const [model, usage] of Object.entries(run.per_model)) perModel[model] = sumUsage(perModel[model], usage);
    for (const [tool, synthesis] of Object.entries(run.syntheses)) {
      drafted += 1;
      if (synthesis.verification_failures > 0) caught += 1;
      perTool[tool] = { ...sumUsage(perTool[tool], synthesis), status: synthesis.status };
    }
  }
  const toolUses = runs.reduce((sum, run) => sum + Object.keys(perTool).reduce((uses, tool) => uses + (Object.hasOwn(run.tools, tool) ? run.tools[tool]! : 0), 0), 0);
  const statuses = Object.values(perTool).map((tool) => tool.status);
  return {
    runs: runs.length,
    ...overall,
    halts_by_reason: halts,
    tool_calls: toolCalls,
    tool_errors: toolErrors,
    per_model: perModel,
    synthesis: {
      drafted,
      promoted: statuses.filter((status) => status === 'promoted').length,
      failed: statuses.filter((status) => status === 'failed').length,
      caught,
      catch_rate: drafted === 0 ? null : caught / drafted,
      tool_uses: toolUses,
      reuse_ratio: drafted === 0 ? null : toolUses / drafted,
      per_tool: perTool,
    },
  };
}
