import type { HaltReason } from '../../core/index.js';
import type { RunTotals } from './run-totals.js';
import type { SynthesisTotals } from './synthesis-tally.js';
import { NO_USAGE, sumUsage, type UsageTotals } from './usage-totals.js';

/** Many runs added up: what `forge stats` reports across runs. */
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
    /** Cost and outcome per synthesized tool (a tool drafted twice adds up; the latest outcome stands). */
    readonly per_tool: Readonly<Record<string, UsageTotals & { readonly status: SynthesisTotals['status'] }>>;
  };
}

/**
 * Adds up many runs, fed in pieces: how many ended which way, model usage, tool calls and each run's
 * syntheses, oldest run first. The pieces may come per run (from run logs, `aggregateTotals`) or
 * already summed over many runs (from a store's aggregate queries); the figures are the same either
 * way, including those only a series of runs shows (reuse of synthesized tools).
 */
export class AggregateTally {
  private runs = 0;
  private overall: UsageTotals = NO_USAGE;
  private toolCalls = 0;
  private toolErrors = 0;
  private drafted = 0;
  private caught = 0;
  // Keyed by names from runs: records without a prototype keep `__proto__` or `constructor` ordinary keys.
  private readonly halts = Object.create(null) as Record<string, number>;
  private readonly perModel = Object.create(null) as Record<string, UsageTotals>;
  private readonly callsPerTool = Object.create(null) as Record<string, number>;
  private readonly perTool = Object.create(null) as Record<string, UsageTotals & { status: SynthesisTotals['status'] }>;

  /** `count` runs that ended with `haltReason` (null: not ended yet). */
  addRuns(haltReason: HaltReason | null, count: number): void {
    const halt = haltReason ?? 'unfinished';
    this.runs += count;
    this.halts[halt] = (this.halts[halt] ?? 0) + count;
  }

  addModelUsage(model: string, usage: UsageTotals): void {
    this.overall = sumUsage(this.overall, usage);
    this.perModel[model] = sumUsage(this.perModel[model], usage);
  }

  /** `calls` calls of `tool`, failed or not. */
  addToolCalls(tool: string, calls: number): void {
    this.toolCalls += calls;
    this.callsPerTool[tool] = (this.callsPerTool[tool] ?? 0) + calls;
  }

  /** Tool calls that failed (already counted by `addToolCalls`). */
  addToolErrors(errors: number): void {
    this.toolErrors += errors;
  }

  /** One run's syntheses by tool name; runs in order, so a tool's latest outcome is the one that stands. */
  addRunSyntheses(syntheses: Readonly<Record<string, SynthesisTotals>>): void {
    for (const [tool, synthesis] of Object.entries(syntheses)) {
      this.drafted += 1;
      if (synthesis.verification_failures > 0) this.caught += 1;
      this.perTool[tool] = { ...sumUsage(this.perTool[tool], synthesis), status: synthesis.status };
    }
  }

  totals(): AggregateTotals {
    const toolUses = Object.keys(this.perTool).reduce((uses, tool) => uses + (this.callsPerTool[tool] ?? 0), 0);
    const statuses = Object.values(this.perTool).map((tool) => tool.status);
    return {
      runs: this.runs,
      ...this.overall,
      halts_by_reason: this.halts,
      tool_calls: this.toolCalls,
      tool_errors: this.toolErrors,
      per_model: this.perModel,
      synthesis: {
        drafted: this.drafted,
        promoted: statuses.filter((status) => status === 'promoted').length,
        failed: statuses.filter((status) => status === 'failed').length,
        caught: this.caught,
        catch_rate: this.drafted === 0 ? null : this.caught / this.drafted,
        tool_uses: toolUses,
        reuse_ratio: this.drafted === 0 ? null : toolUses / this.drafted,
        per_tool: this.perTool,
      },
    };
  }
}

/** Adds up the totals of several runs, oldest first. */
export function aggregateTotals(runs: readonly RunTotals[]): AggregateTotals {
  const tally = new AggregateTally();
  for (const run of runs) {
    tally.addRuns(run.halt_reason, 1);
    for (const [model, usage] of Object.entries(run.per_model)) tally.addModelUsage(model, usage);
    for (const [tool, calls] of Object.entries(run.tools)) tally.addToolCalls(tool, calls);
    tally.addToolErrors(run.tool_errors);
    tally.addRunSyntheses(run.syntheses);
  }
  return tally.totals();
}
