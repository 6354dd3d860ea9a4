import type { CostSum } from '../../../src/llm/cost-sum.js';
import { readableOutput } from '../../../src/security/readable-output.js';
import { runViewOf as foldedRunView, type RunView as FoldedRunView, type TimelineItem, type ToolCallView } from '../../../src/contract/run-view.js';
import type { EventOf, ForgeEvent } from './types.js';

export type { TimelineItem, ToolCallView };

/**
 * What the chat, the run page and the replay page draw of a run: selected from the run view (the one fold
 * of the event stream, shared with the terminal UI), with outputs made readable.
 */
export interface RunView {
  readonly start?: EventOf<'run-start'>;
  readonly end?: EventOf<'run-end'>;
  readonly paused: boolean;
  readonly items: readonly TimelineItem[];
  readonly calls: ReadonlyMap<string, ToolCallView>;
  readonly modelCalls: readonly EventOf<'model-call'>[];
  readonly modelErrors: readonly EventOf<'model-error'>[];
  readonly plan?: EventOf<'plan-update'>;
  /** The run's synthesized tools, each as its last `toolbox-change` announced it. */
  readonly toolbox: ReadonlyMap<string, EventOf<'toolbox-change'>>;
  readonly verifications: readonly EventOf<'verification-failed'>[];
  readonly syntheses: readonly EventOf<'synthesis-end'>[];
  readonly convergence?: EventOf<'convergence-check'>;
  readonly skillSteps: readonly EventOf<'skill-step'>[];
  readonly stale: readonly EventOf<'skill-stale'>[];
  /** Model calls, tokens and dollars so far (the run-end's once it ended); the cost is unknown once one call had no known price. */
  readonly totals: RunTotalsView;
}

export interface RunTotalsView extends CostSum {
  readonly llmCalls: number;
  readonly input: number;
  readonly output: number;
}

export function runViewOf(events: readonly ForgeEvent[]): RunView {
  return selectedForWeb(foldedRunView(events));
}

function selectedForWeb(view: FoldedRunView): RunView {
  const { start, end, plan, convergence } = view;
  return {
    ...(start === null ? {} : { start }),
    // The boundary tags of a tool's output are for the model; people read the output without them.
    ...(end === null ? {} : { end: end.answer === null ? end : { ...end, answer: readableOutput(end.answer) } }),
    paused: view.paused,
    items: view.items,
    calls: new Map([...view.calls].map(([id, call]) => [id, call.result === undefined ? call : { ...call, result: { ...call.result, output: readableOutput(call.result.output) } }])),
    modelCalls: view.modelCalls,
    modelErrors: view.modelErrors,
    ...(plan === null ? {} : { plan }),
    toolbox: new Map(view.toolbox.flatMap((entry) => (entry.lastChange === null ? [] : [[entry.name, entry.lastChange] as const]))),
    verifications: view.verifications,
    syntheses: view.syntheses,
    ...(convergence === null ? {} : { convergence }),
    skillSteps: view.skillSteps,
    stale: view.stale,
    totals: totalsOf(view),
  };
}

function totalsOf({ totals, end }: FoldedRunView): RunTotalsView {
  const counted: RunTotalsView = {
    llmCalls: totals.modelCalls,
    input: totals.inputTokens,
    output: totals.outputTokens,
    costUsd: totals.unpricedCalls > 0 ? null : totals.costUsd,
    pricedCostUsd: totals.costUsd,
    unpricedCalls: totals.unpricedCalls,
  };
  if (end === null) return counted;
  // A run-end written before its cost's known part was recorded: the parts are the calls' own.
  return { llmCalls: end.llm_calls, input: end.tokens.input, output: end.tokens.output, costUsd: end.cost_usd, pricedCostUsd: end.cost_usd_known ?? end.cost_usd ?? counted.pricedCostUsd, unpricedCalls: end.unpriced_calls ?? counted.unpricedCalls };
}
