import type { ForgeEvent, ModelCallRecord, NewStep, RunUpdate, ToolCallRecord } from '../../core/index.js';

/** The store rows a run's events imply besides the events themselves. */
export interface StoreRows {
  readonly steps: NewStep[];
  readonly modelCalls: ModelCallRecord[];
  /** The tool-call analytics rows: one per step, with the error's name, whether the cache answered, and bytes in and out. */
  readonly toolCalls: ToolCallRecord[];
  /** The run's final state, when the events include its `run-end`. */
  readonly runUpdate: RunUpdate | undefined;
}

/**
 * Turns one run's events, fed in seq order, into its steps (one per tool result or error, numbered
 * from 0, with the input of its `tool-call-start`) and their tool-call analytics rows, its model calls
 * and, at `run-end`, the run's final state. It keeps what it needs across batches, so events can be
 * fed as they arrive.
 */
export class StoreRowDeriver {
  private readonly toolInputs = new Map<string, unknown>();
  private stepIndex = 0;

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
          runUpdate = { status: 'waiting', haltReason: 'awaiting_approval' };
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
            error: event.error?.message ?? null,
          };
          break;
        default:
          break;
      }
    }
    return { steps, modelCalls, toolCalls, runUpdate };
  }
}
