import type { ForgeEvent, ModelCallRecord, NewStep, RunUpdate, ToolCallRecord } from '../../core/index.js';
import { addCallCost, NO_COST, type CostSum } from '../../llm/index.js';

/** The store rows a run's events imply besides the events themselves. */
export interface StoreRows {
  readonly steps: NewStep[];
  readonly modelCalls: ModelCallRecord[];
  /** The tool-call analytics rows: one per step, with the error's name, whether the cache answered, and bytes in and out. */
  readonly toolCalls: ToolCallRecord[];
  /**
   * The run's state when the events include its `run-end` (final) or a `run-pause` (waiting, with what
   * it spent so far); otherwise, when they include model calls, what it has spent so far.
   */
  readonly runUpdate: RunUpdate | undefined;
}

/**
 * Turns one run's events, fed in seq order, into its steps (one per tool result or error, numbered
 * from 0, with the input of its `tool-call-start`) and their tool-call analytics rows, its model calls
 * and, at `run-end`, the run's final state; at a `run-pause`, the run waits with the model calls,
 * tokens and cost of every `model-call` before it. It keeps what it needs across batches (a resumed
 * run's recorder is fed the events recorded before), so events can be fed as they arrive.
 */
export class StoreRowDeriver {
  private readonly toolInputs = new Map<string, unknown>();
  private stepIndex = 0;
  private spent: { llmCalls: number; inputTokens: number; outputTokens: number; cost: CostSum } = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cost: NO_COST };

  constructor(private readonly runId: string) {}

  derive(events: readonly ForgeEvent[]): StoreRows {
    const steps: NewStep[] = [];
    const modelCalls: ModelCallRecord[] = [];
    const toolCalls: ToolCallRecord[] = [];
    let runUpdate: RunUpdate | undefined;
    for (const event of events) {
      switch (event.type) {
        case 'tool-call-start':
          this.toolInputs.set(event.call_id, event.input);
          break;
        case 'tool-result':
        case 'tool-error': {
          const input = this.toolInputs.get(event.call_id) ?? null;
          const output = event.type === 'tool-result' ? event.output : null;
          const error = event.type === 'tool-error' ? event.error : null;
          steps.push({ runId: this.runId, index: this.stepIndex++, callId: event.call_id, tool: event.tool, input, output, error: error?.message ?? null, durationMs: event.duration_ms });
          toolCalls.push({
            runId: this.runId,
            callId: event.call_id,
            tool: event.tool,
            ok: error === null,
            errorName: error?.name ?? null,
            cached: event.type === 'tool-result' && event.cached === true,
            durationMs: event.duration_ms,
            bytesIn: Buffer.byteLength(JSON.stringify(input)),
            bytesOut: Buffer.byteLength(output ?? error?.message ?? ''),
            at: event.ts,
          });
          break;
        }
        case 'model-call':
          this.spent = {
            llmCalls: this.spent.llmCalls + 1,
            inputTokens: this.spent.inputTokens + event.tokens.input,
            outputTokens: this.spent.outputTokens + event.tokens.output,
            cost: addCallCost(this.spent.cost, event.cost_usd),
          };
          modelCalls.push({
            runId: this.runId,
            model: event.model,
            purpose: event.purpose,
            inputTokens: event.tokens.input,
            outputTokens: event.tokens.output,
            costUsd: event.cost_usd,
            latencyMs: event.latency_ms,
            inputHash: event.input_hash,
            ts: event.ts,
          });
          break;
        case 'run-pause':
          runUpdate = { status: 'waiting', haltReason: 'awaiting_approval', ...this.spentSoFar() };
          break;
        case 'run-end':
          runUpdate = {
            status: event.status,
            haltReason: event.halt_reason,
            answer: event.answer,
            llmCalls: event.llm_calls,
            inputTokens: event.tokens.input,
            outputTokens: event.tokens.output,
            costUsd: event.cost_usd,
            // Logs written before run-end carried them: the model calls the deriver saw.
            pricedCostUsd: event.cost_usd_known ?? this.spent.cost.pricedCostUsd,
            unpricedCalls: event.unpriced_calls ?? this.spent.cost.unpricedCalls,
            error: event.error?.message ?? null,
          };
          break;
        default:
          break;
      }
    }
    // A run's record counts its calls as they are made, not only once it pauses or ends.
    if (runUpdate === undefined && modelCalls.length > 0) runUpdate = this.spentSoFar();
    return { steps, modelCalls, toolCalls, runUpdate };
  }

  /** The model calls, tokens and cost of every `model-call` fed so far. */
  private spentSoFar(): RunUpdate {
    const { llmCalls, inputTokens, outputTokens, cost } = this.spent;
    return { llmCalls, inputTokens, outputTokens, costUsd: cost.costUsd, pricedCostUsd: cost.pricedCostUsd, unpricedCalls: cost.unpricedCalls };
  }
}
