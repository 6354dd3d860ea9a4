import type { ErrorInfo, HaltReason, RunStatus, TokenUsage } from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import type { CostMeter } from '../llm/index.js';

/** How a run ended, as `run-end` records it and `--json` reports it. */
export interface RunSummary {
  readonly run_id: string;
  readonly status: RunStatus;
  readonly halt_reason: HaltReason;
  readonly answer: string | null;
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  /** Null when any model call had no known price; `cost_usd_known` and `unpriced_calls` say what is known. */
  readonly cost_usd: number | null;
  readonly cost_usd_known: number;
  readonly unpriced_calls: number;
  readonly error: ErrorInfo | null;
  readonly duration_ms: number;
}

/**
 * Closes a run's lifecycle: emits `run-end` with the meter's totals and returns the same figures, so the
 * run log and the caller's result can never disagree. Every kind of run (agent loop, skill replay,
 * convergence loop) ends through here.
 */
export function finishRun(
  emitter: RunEmitter,
  meter: CostMeter,
  outcome: {
    status: RunStatus;
    haltReason: HaltReason;
    answer: string | null;
    error: ErrorInfo | null;
    startedAt: number;
    /** Recorded on `run-end` when not empty (a cap halt, a synthesis that used up its revisions). */
    warnings?: readonly string[];
  },
): RunSummary {
  const totals = meter.totals();
  const summary: RunSummary = {
    run_id: emitter.runId,
    status: outcome.status,
    halt_reason: outcome.haltReason,
    answer: outcome.answer,
    llm_calls: totals.llmCalls,
    tokens: totals.tokens,
    cost_usd: totals.costUsd,
    cost_usd_known: totals.pricedCostUsd,
    unpriced_calls: totals.unpricedCalls,
    error: outcome.error,
    duration_ms: performance.now() - outcome.startedAt,
  };
  const { run_id: _runId, ...body } = summary;
  emitter.emit({ type: 'run-end', ...body, ...(outcome.warnings === undefined || outcome.warnings.length === 0 ? {} : { warnings: [...outcome.warnings] }) });
  return summary;
}
