import type { ForgeEvent, TokenUsage } from '../core/index.js';
import { resultData } from './result-data.js';

/** The model call whose answer asked for a tool call. */
export interface TraceModelCall {
  readonly model: string;
  readonly iteration: number;
  readonly tokens: TokenUsage;
}

/** One tool call exactly as it happened in a run. */
export interface TraceStep {
  /** Position among the run's tool calls, from 0. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  /** The input as the tool received it (after schema validation). */
  readonly input: unknown;
  /** The result as skills read it (`resultData` of what the model saw); null when the call failed. */
  readonly result: unknown;
  /** The text the model was shown for this call. */
  readonly output: string;
  readonly error: string | null;
  readonly durationMs: number;
  readonly producedBy: TraceModelCall | null;
}

/**
 * What a run actually did, reconstructed from its events alone (so any logged or stored run has a
 * trace): the task, every tool call with input, result, error state and duration, the model call that
 * asked for it, and the model's own text (which later steps may have been handed).
 */
export interface Trace {
  readonly runId: string;
  readonly task: string;
  readonly model: string;
  readonly steps: readonly TraceStep[];
  readonly assistantTexts: readonly string[];
  readonly answer: string | null;
  readonly completed: boolean;
}

/** Builds the trace of one run from its events, in `seq` order. */
export function traceFromEvents(events: readonly ForgeEvent[]): Trace {
  const modelCalls = new Map<number, TraceModelCall>();
  const starts = new Map<string, { tool: string; input: unknown; iteration: number | null }>();
  const steps: TraceStep[] = [];
  const assistantTexts: string[] = [];
  let task = '';
  let model = '';
  let answer: string | null = null;
  let completed = false;
  for (const event of events) {
    switch (event.type) {
      case 'run-start':
        task = event.task;
        model = event.model;
        break;
      case 'model-call':
        if (event.iteration > 0) modelCalls.set(event.iteration, { model: event.model, iteration: event.iteration, tokens: event.tokens });
        break;
      case 'assistant-text':
        assistantTexts.push(event.text);
        break;
      case 'tool-call-start':
        starts.set(event.call_id, { tool: event.tool, input: event.input, iteration: event.iteration });
        break;
      case 'tool-result':
      case 'tool-error': {
        const start = starts.get(event.call_id);
        const failed = event.type === 'tool-error';
        steps.push({
          index: steps.length,
          callId: event.call_id,
          tool: event.tool,
          input: start?.input ?? null,
          result: failed ? null : resultData(event.output),
          output: failed ? '' : event.output,
          error: failed ? event.error.message : null,
          durationMs: event.duration_ms,
          producedBy: start?.iteration === null || start?.iteration === undefined ? null : (modelCalls.get(start.iteration) ?? null),
        });
        break;
      }
      case 'run-end':
        answer = event.answer;
        completed = event.status === 'completed';
        break;
      default:
        break;
    }
  }
  return { runId: events[0]?.run_id ?? '', task, model, steps, assistantTexts, answer, completed };
}
