import { describe, expect, it } from 'vitest';
import { forgeEventSchema, type ForgeEvent } from '../src/core/index.js';
import { runViewOf } from '../web/src/api/run-view.js';

let seq = 0;
function event(body: Record<string, unknown>): ForgeEvent {
  return forgeEventSchema.parse({ ts: '2026-12-03T12:00:00.000Z', run_id: 'run-1', seq: seq++, ...body });
}

/** What the web UI draws of a run comes from its events alone: the same reduction for live and stored runs. */
describe("the web UI's view of a run", () => {
  it('follows a converge run: plan, toolbox by status, real sandbox failures, the convergence indicator, and a denied call', () => {
    seq = 0;
    const events = [
      event({ type: 'run-start', task: 'convert 3 EUR', model: 'openai:gpt-4.1-mini', max_iterations: 10, conversation_id: null, tools: [] }),
      event({ type: 'model-call', model: 'openai:gpt-4.1-mini', iteration: 1, purpose: 'agent', tokens: { input: 100, output: 20 }, cost_usd: 0.001, latency_ms: 50, input_hash: 'a', finish_reason: 'tool-calls', tool_calls: 1 }),
      event({ type: 'plan-update', steps: [{ id: '1', title: 'Find the rate', status: 'done' }, { id: '2', title: 'Convert', status: 'in_progress' }] }),
      event({ type: 'toolbox-change', tool: 'eur_rate', status: 'testing', revisions: 0, uses: 0 }),
      event({ type: 'verification-failed', tool: 'eur_rate', revision: 0, output: 'AssertionError: expected 1.1, got undefined' }),
      event({ type: 'toolbox-change', tool: 'eur_rate', status: 'promoted', revisions: 1, uses: 0 }),
      event({ type: 'tool-call-start', call_id: 'c1', tool: 'send_email', input: { to: 'a@example.com' }, iteration: 2 }),
      event({ type: 'policy-decision', call_id: 'c1', tool: 'send_email', decision: 'require_approval', reason: 'writes' }),
      event({ type: 'approval-request', call_id: 'c1', tool: 'send_email', input_digest: 'abc123', reason: 'writes', expires_at: null }),
      event({ type: 'run-pause', reason: 'approval', waiting_on: ['c1'] }),
    ];
    const paused = runViewOf(events);
    expect(paused.paused).toBe(true);
    expect(paused.calls.get('c1')?.status).toBe('awaiting_approval');
    expect(paused.totals).toEqual({ llmCalls: 1, input: 100, output: 20, costUsd: 0.001, pricedCostUsd: 0.001, unpricedCalls: 0 });

    const done = runViewOf([
      ...events,
      event({ type: 'run-resume', turn: 2, pending: ['c1'] }),
      event({ type: 'approval-answer', call_id: 'c1', decision: 'denied', reason: 'not today' }),
      event({ type: 'convergence-check', turn: 3, toolbox_stable: true, plan_stable: true, stable_streak: 1, threshold: 1 }),
      event({ type: 'assistant-text', iteration: 3, text: '3 EUR is 3.30 USD.' }),
      event({ type: 'run-end', status: 'completed', halt_reason: 'converged', answer: '3 EUR is 3.30 USD.', llm_calls: 3, tokens: { input: 300, output: 60 }, cost_usd: 0.003, error: null, duration_ms: 900 }),
    ]);
    expect(done.paused).toBe(false);
    expect(done.calls.get('c1')?.status).toBe('denied');
    expect(done.plan?.steps.map((step) => step.status)).toEqual(['done', 'in_progress']);
    expect([...done.toolbox.values()]).toEqual([expect.objectContaining({ tool: 'eur_rate', status: 'promoted', revisions: 1 })]);
    expect(done.verifications.map((failure) => failure.output)).toEqual(['AssertionError: expected 1.1, got undefined']);
    expect(done.convergence).toMatchObject({ stable_streak: 1, threshold: 1 });
    expect(done.items.map((item) => item.kind)).toEqual(['tool', 'text']);
    // Once the run ended, its totals are the run-end's, model calls of the synthesis included.
    expect(done.totals).toEqual({ llmCalls: 3, input: 300, output: 60, costUsd: 0.003, pricedCostUsd: 0.003, unpricedCalls: 0 });
  });

  it('a waiting run with a call of unknown price costs unknown, with the priced part and the unpriced calls beside (never $0 or a partial sum)', () => {
    seq = 0;
    const view = runViewOf([
      event({ type: 'run-start', task: 'refund order 7', model: 'openai-compatible:local-llm', max_iterations: 10, conversation_id: null, tools: [] }),
      event({ type: 'model-call', model: 'openai:gpt-4.1-mini', iteration: 1, purpose: 'agent', tokens: { input: 100, output: 20 }, cost_usd: 0.001, latency_ms: 50, input_hash: 'a', finish_reason: 'stop', tool_calls: 0 }),
      event({ type: 'model-call', model: 'openai-compatible:local-llm', iteration: 2, purpose: 'agent', tokens: { input: 50, output: 10 }, cost_usd: null, latency_ms: 50, input_hash: 'b', finish_reason: 'tool-calls', tool_calls: 1 }),
      event({ type: 'tool-call-start', call_id: 'c1', tool: 'refund_order', input: { order_id: '7' }, iteration: 2 }),
      event({ type: 'approval-request', call_id: 'c1', tool: 'refund_order', input_digest: 'abc123', reason: 'writes', expires_at: null }),
      event({ type: 'run-pause', reason: 'approval', waiting_on: ['c1'] }),
    ]);
    expect(view.totals).toEqual({ llmCalls: 2, input: 150, output: 30, costUsd: null, pricedCostUsd: 0.001, unpricedCalls: 1 });
  });
});
