import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { streamMeteredModelTurn, type LoopMessage, type ModelToolCall } from '../../engine/index.js';
import type { ModelCallRecord } from '../../core/index.js';
import type { RunEmitter } from '../../events/index.js';
import type { CostMeter, ResolvedModel } from '../../llm/index.js';

export type SubmitToolName = 'submit_tool' | 'submit_test';

function submitTool(name: SubmitToolName): LanguageModelV3FunctionTool {
  return {
    type: 'function',
    name,
    description: name === 'submit_tool' ? 'Hand back the complete tool module.' : 'Hand back the complete test module.',
    inputSchema: {
      type: 'object',
      properties: { source: { type: 'string', description: 'the whole ES module, as JavaScript source text' } },
      required: ['source'],
      additionalProperties: false,
    },
  };
}

export interface Submission {
  /** The forced call, for the conversation; undefined when the model broke the protocol. */
  readonly call: ModelToolCall | undefined;
  /** The module source, or undefined with `problem` saying why there is none. */
  readonly source: string | undefined;
  readonly problem?: string;
  readonly record: ModelCallRecord;
}

/**
 * One model call forced to answer with a single `submit_tool`/`submit_test` call, so the work comes back
 * as structured data and never scraped from prose. Metered and logged like every model call.
 */
export async function requestSubmission(options: {
  readonly model: ResolvedModel;
  readonly system: string;
  readonly messages: readonly LoopMessage[];
  readonly tool: SubmitToolName;
  readonly purpose: 'tool-author' | 'tool-test';
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly iteration: number;
  readonly signal: AbortSignal;
  readonly maxRetries: number;
}): Promise<Submission> {
  const turn = await streamMeteredModelTurn({
    model: options.model,
    system: options.system,
    messages: options.messages,
    tools: [submitTool(options.tool)],
    toolChoice: { type: 'tool', toolName: options.tool },
    singleToolCall: true,
    signal: options.signal,
    maxRetries: options.maxRetries,
    emitter: options.emitter,
    meter: options.meter,
    purpose: options.purpose,
    iteration: options.iteration,
  });
  const call = turn.toolCalls.find((candidate) => candidate.name === options.tool);
  const source = (call?.input as { source?: unknown } | undefined)?.source;
  if (call === undefined) return { call: undefined, source: undefined, problem: `the model did not call ${options.tool}`, record: turn.record };
  if (typeof source !== 'string' || source.trim() === '') {
    return { call, source: undefined, problem: `${options.tool} needs {"source": "<the whole module>"}`, record: turn.record };
  }
  return { call, source, record: turn.record };
}
