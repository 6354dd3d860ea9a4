import { describe, expect, it } from 'vitest';
import { forgeEventSchema, type ForgeEvent } from '../../core/index.js';
import { StoreRowDeriver } from './store-rows.js';

let seq = 0;
function event(body: Record<string, unknown>): ForgeEvent {
  return forgeEventSchema.parse({ ts: '2026-12-06T12:00:00.000Z', run_id: 'run-1', seq: seq++, ...body });
}

function modelCall(costUsd: number | null, input: number, output: number): ForgeEvent {
  return event({ type: 'model-call', model: 'm', iteration: 1, purpose: 'agent', tokens: { input, output }, cost_usd: costUsd, latency_ms: 5, input_hash: 'h', finish_reason: 'tool-calls', tool_calls: 1 });
}

describe('the run record a run\'s events imply', () => {
  it('a paused run waits with every model call it made, a resumed one counts those recorded before it, and an unknown price keeps the cost unknown', () => {
    seq = 0;
    const first = new StoreRowDeriver('run-1');
    expect(first.derive([event({ type: 'run-start', task: 't', model: 'm', max_iterations: 5, conversation_id: null, tools: [] }), modelCall(0.002, 100, 10)]).runUpdate).toEqual({ llmCalls: 1, inputTokens: 100, outputTokens: 10, costUsd: 0.002, pricedCostUsd: 0.002, unpricedCalls: 0 });
    const recorded = [modelCall(null, 50, 5), event({ type: 'run-pause', reason: 'approval', waiting_on: ['c1'] })];
    expect(first.derive(recorded).runUpdate).toEqual({ status: 'waiting', haltReason: 'awaiting_approval', llmCalls: 2, inputTokens: 150, outputTokens: 15, costUsd: null, pricedCostUsd: 0.002, unpricedCalls: 1 });

    // The resumed run's recorder is fed what was recorded before; its next pause counts all of it.
    seq = 0;
    const resumed = new StoreRowDeriver('run-1');
    resumed.derive([event({ type: 'run-start', task: 't', model: 'm', max_iterations: 5, conversation_id: null, tools: [] }), modelCall(0.002, 100, 10), ...recorded]);
    expect(resumed.derive([event({ type: 'run-resume', turn: 2, pending: ['c1'] }), modelCall(0.001, 10, 1), event({ type: 'run-pause', reason: 'approval', waiting_on: ['c2'] })]).runUpdate).toMatchObject({ status: 'waiting', llmCalls: 3, costUsd: null, pricedCostUsd: 0.003, unpricedCalls: 1 });
  });
});
