import { addCallCost, NO_COST, type CostSum } from '../../../src/llm/cost-sum.js';
import { readableOutput } from '../../../src/security/readable-output.js';
import type { EventOf, ForgeEvent } from './types.js';

/** One tool call as its card shows it, from its events. */
export interface ToolCallView {
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  readonly startedAt: string;
  readonly policy?: EventOf<'policy-decision'>;
  readonly approvalRequest?: EventOf<'approval-request'>;
  readonly approvalAnswer?: EventOf<'approval-answer'>;
  readonly result?: EventOf<'tool-result'>;
  readonly error?: EventOf<'tool-error'>;
  readonly logs: readonly string[];
  /** running → awaiting_approval → (denied | blocked | done | failed). */
  readonly status: 'running' | 'awaiting_approval' | 'denied' | 'blocked' | 'done' | 'failed';
}

export type TimelineItem = { readonly kind: 'text'; readonly seq: number; readonly text: string; readonly iteration: number } | { readonly kind: 'tool'; readonly seq: number; readonly callId: string };

/** What a run's events add up to: what the chat, the run page and the replay page draw. */
export interface RunView {
  readonly start?: EventOf<'run-start'>;
  readonly end?: EventOf<'run-end'>;
  readonly paused: boolean;
  readonly items: readonly TimelineItem[];
  readonly calls: ReadonlyMap<string, ToolCallView>;
  readonly modelCalls: readonly EventOf<'model-call'>[];
  readonly modelErrors: readonly EventOf<'model-error'>[];
  readonly plan?: EventOf<'plan-update'>;
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

function statusOf(call: Omit<ToolCallView, 'status'>): ToolCallView['status'] {
  if (call.result !== undefined) return 'done';
  if (call.policy?.decision === 'block') return 'blocked';
  if (call.approvalAnswer !== undefined && call.approvalAnswer.decision !== 'approved') return 'denied';
  if (call.error !== undefined) return 'failed';
  if (call.approvalRequest !== undefined && call.approvalAnswer === undefined) return 'awaiting_approval';
  return 'running';
}

export function runViewOf(events: readonly ForgeEvent[]): RunView {
  const calls = new Map<string, Omit<ToolCallView, 'status'>>();
  const items: TimelineItem[] = [];
  const modelCalls: EventOf<'model-call'>[] = [];
  const modelErrors: EventOf<'model-error'>[] = [];
  const toolbox = new Map<string, EventOf<'toolbox-change'>>();
  const verifications: EventOf<'verification-failed'>[] = [];
  const syntheses: EventOf<'synthesis-end'>[] = [];
  const skillSteps: EventOf<'skill-step'>[] = [];
  const stale: EventOf<'skill-stale'>[] = [];
  let start: EventOf<'run-start'> | undefined;
  let end: EventOf<'run-end'> | undefined;
  let plan: EventOf<'plan-update'> | undefined;
  let convergence: EventOf<'convergence-check'> | undefined;
  let paused = false;
  const update = (callId: string, change: Partial<Omit<ToolCallView, 'status'>>) => {
    const call = calls.get(callId);
    if (call !== undefined) calls.set(callId, { ...call, ...change });
  };
  for (const event of events) {
    switch (event.type) {
      case 'run-start':
        start ??= event;
        break;
      case 'run-end':
        // The boundary tags of a tool's output are for the model; people read the output without them.
        end = event.answer === null ? event : { ...event, answer: readableOutput(event.answer) };
        paused = false;
        break;
      case 'run-pause':
        paused = true;
        break;
      case 'run-resume':
        paused = false;
        end = undefined;
        break;
      case 'assistant-text':
        if (event.text.trim() !== '') items.push({ kind: 'text', seq: event.seq, text: event.text, iteration: event.iteration });
        break;
      case 'tool-call-start':
        if (!calls.has(event.call_id)) {
          calls.set(event.call_id, { callId: event.call_id, tool: event.tool, input: event.input, startedAt: event.ts, logs: [] });
          items.push({ kind: 'tool', seq: event.seq, callId: event.call_id });
        }
        break;
      case 'policy-decision':
        update(event.call_id, { policy: event });
        break;
      case 'approval-request':
        update(event.call_id, { approvalRequest: event });
        break;
      case 'approval-answer':
        update(event.call_id, { approvalAnswer: event });
        break;
      case 'tool-result':
        update(event.call_id, { result: { ...event, output: readableOutput(event.output) } });
        break;
      case 'tool-error':
        update(event.call_id, { error: event });
        break;
      case 'tool-log':
        update(event.call_id, { logs: [...(calls.get(event.call_id)?.logs ?? []), ...event.lines] });
        break;
      case 'model-call':
        modelCalls.push(event);
        break;
      case 'model-error':
        modelErrors.push(event);
        break;
      case 'plan-update':
        plan = event;
        break;
      case 'toolbox-change':
        toolbox.set(event.tool, event);
        break;
      case 'verification-failed':
        verifications.push(event);
        break;
      case 'synthesis-end':
        syntheses.push(event);
        break;
      case 'convergence-check':
        convergence = event;
        break;
      case 'skill-step':
        skillSteps.push(event);
        break;
      case 'skill-stale':
        stale.push(event);
        break;
      default:
        break;
    }
  }
  const summed = modelCalls.reduce<RunTotalsView>(
    (sum, call) => ({ llmCalls: sum.llmCalls + 1, input: sum.input + call.tokens.input, output: sum.output + call.tokens.output, ...addCallCost(sum, call.cost_usd) }),
    { llmCalls: 0, input: 0, output: 0, ...NO_COST },
  );
  // A run-end written before its cost's known part was recorded: the parts are the calls' own.
  const totals: RunTotalsView =
    end === undefined ? summed : { llmCalls: end.llm_calls, input: end.tokens.input, output: end.tokens.output, costUsd: end.cost_usd, pricedCostUsd: end.cost_usd_known ?? end.cost_usd ?? summed.pricedCostUsd, unpricedCalls: end.unpriced_calls ?? summed.unpricedCalls };
  const views = new Map<string, ToolCallView>();
  for (const [id, call] of calls) views.set(id, { ...call, status: statusOf(call) });
  return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }), paused, items, calls: views, modelCalls, modelErrors, ...(plan === undefined ? {} : { plan }), toolbox, verifications, syntheses, ...(convergence === undefined ? {} : { convergence }), skillSteps, stale, totals };
}
