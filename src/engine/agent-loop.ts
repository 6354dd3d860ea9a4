import type { ErrorInfo } from '../core/index.js';
import type { LoopRules } from './loop-rules.js';
import { runLoop, type LoopOptions, type LoopResult } from './run-loop.js';

export type { RunStep } from './run-loop.js';

export const DEFAULT_MAX_ITERATIONS = 10;

export type AgentRunOptions = Omit<LoopOptions, 'maxIterations'> & { readonly maxIterations?: number };

export type AgentRunResult = LoopResult;

const capError = (cap: number): ErrorInfo => ({
  name: 'IterationCapReached',
  message: `The run reached its iteration cap (${cap}) before the model gave a final answer.`,
  hint: 'Raise --max-iterations, or make the task narrower.',
});

/**
 * The agent's turn rules: the model chooses freely among the run's tools and may call several at once
 * (they run in parallel); a turn without tool calls is the final answer. Nothing else stops it but the cap.
 */
export function agentRules(): LoopRules {
  return {
    kind: 'agent',
    ownTools: [],
    toolChoice: { type: 'auto' },
    oneCallPerTurn: false,
    noCalls: 'final-answer',
    firstMessage: (task) => task,
    afterTools: () => null,
    afterTurn: () => undefined,
    capHalt: (cap) => ({ error: capError(cap) }),
    save: () => null,
    warnings: () => [],
  };
}

/**
 * The ReAct loop (see `runLoop`) with the agent's rules: ask the model, run the tool calls it returns in
 * parallel through dispatch, feed the results back, and repeat until the model answers without calling
 * a tool or the iteration cap is reached. Never throws for run-level failures; a tool list naming
 * unknown tools throws `UnknownToolsError` before the run starts.
 */
export function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  return runLoop({ ...options, maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS }, agentRules);
}
