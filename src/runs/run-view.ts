import type { RunRecord } from '../core/index.js';
import { costSumJson } from '../llm/index.js';
import { readableOutput } from '../security/index.js';

/** A stored run as Forge's JSON output shows it (snake_case, like a run's own `--json` report). */
export interface RunView {
  readonly run_id: string;
  readonly kind: RunRecord['kind'];
  readonly status: RunRecord['status'];
  readonly halt_reason: RunRecord['haltReason'];
  readonly task: string;
  readonly model: string;
  readonly answer: string | null;
  readonly error: string | null;
  readonly conversation_id: string | null;
  readonly llm_calls: number;
  readonly tokens: { readonly input: number; readonly output: number };
  /** Null when any of its model calls had no known price; `cost_usd_known` is then what the priced ones cost. */
  readonly cost_usd: number | null;
  readonly cost_usd_known: number;
  readonly unpriced_calls: number;
  readonly owner: RunRecord['owner'];
  readonly log_file: string | null;
  /** The agent definition version it ran; null for runs without one. */
  readonly agent: RunRecord['agent'];
  readonly created_at: string;
  readonly updated_at: string;
}

export function runView(run: RunRecord): RunView {
  return {
    run_id: run.id,
    kind: run.kind,
    status: run.status,
    halt_reason: run.haltReason,
    task: run.task,
    model: run.model,
    answer: run.answer === null ? null : readableOutput(run.answer),
    error: run.error,
    conversation_id: run.conversationId,
    llm_calls: run.llmCalls,
    tokens: { input: run.inputTokens, output: run.outputTokens },
    ...costSumJson({ costUsd: run.costUsd, pricedCostUsd: run.pricedCostUsd, unpricedCalls: run.unpricedCalls }),
    owner: run.owner,
    log_file: run.logFile,
    agent: run.agent,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
  };
}
