import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventOf, ForgeEvent } from '../src/core/index.js';
import { emptyViewState, reduceViewState, viewStateFromEvents } from '../src/cli/tui/index.js';
import { streamCapacity } from '../src/cli/tui/view-state.js';
import { readRunLog } from '../src/runs/run-log/index.js';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');
async function recordedRun(name: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(path.join(fixtures, name));
  if (error !== undefined) throw error;
  return events;
}
const modelCalls = (events: readonly ForgeEvent[]) => events.filter((event): event is EventOf<'model-call'> => event.type === 'model-call');

describe('viewStateFromEvents on a convergence run', () => {
  it('lists builtins from run-start, then synthesized tools with their final status, uses and revisions', async () => {
    const state = viewStateFromEvents(await recordedRun('convergence-run.jsonl'));
    expect(state.toolbox).toEqual([
      { name: 'web_search', status: 'builtin', uses: 0, revisions: 0 },
      { name: 'read_page', status: 'builtin', uses: 0, revisions: 0 },
      { name: 'request_tool', status: 'builtin', uses: 2, revisions: 0 },
      { name: 'fetch_json', status: 'promoted', uses: 3, revisions: 0 },
      { name: 'extract_release_date', status: 'failed', uses: 0, revisions: 3 },
    ]);
  });

  it('follows a tool through draft, testing and promotion', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const statuses: string[] = [];
    let state = emptyViewState;
    for (const event of events) {
      state = reduceViewState(state, event);
      const status = state.toolbox.find((entry) => entry.name === 'fetch_json')?.status;
      if (status !== undefined && statuses.at(-1) !== status) statuses.push(status);
    }
    expect(statuses).toEqual(['draft', 'testing', 'promoted']);
  });

  it('keeps the last plan and convergence check, and the run end', async () => {
    const state = viewStateFromEvents(await recordedRun('convergence-run.jsonl'));
    expect(state.plan.map((step) => step.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(state.convergence).toMatchObject({ turn: 6, toolbox_stable: true, plan_stable: true, stable_streak: 1, threshold: 1 });
    expect(state.end).toMatchObject({ status: 'completed', halt_reason: 'converged' });
    expect(state.modelCallsInFlight).toEqual([]);
  });

  it('totals equal the sums over the model-call events', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const calls = modelCalls(events);
    const state = viewStateFromEvents(events);
    expect(calls).toHaveLength(14);
    expect(state.totals.modelCalls).toBe(calls.length);
    expect(state.totals.inputTokens).toBe(calls.reduce((sum, call) => sum + call.tokens.input, 0));
    expect(state.totals.outputTokens).toBe(calls.reduce((sum, call) => sum + call.tokens.output, 0));
    expect(state.totals.costUsd).toBeCloseTo(calls.reduce((sum, call) => sum + (call.cost_usd ?? 0), 0), 10);
    expect(state.totals.unpricedCalls).toBe(0);
    expect(state.eventCount).toBe(events.length);
    expect(state.stream).toHaveLength(events.length);
  });
});

describe('reduceViewState', () => {
  it('tracks a model call in flight from its start until its result', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const started = viewStateFromEvents(events.slice(0, 2));
    expect(started.modelCallsInFlight).toEqual([{ model: 'openai:gpt-4.1-mini', iteration: 1, startedAtMs: Date.parse('2025-06-01T09:00:00.001Z') }]);
    const finished = reduceViewState(started, events[2] as ForgeEvent);
    expect(finished.modelCallsInFlight).toEqual([]);
    expect(finished.totals).toMatchObject({ modelCalls: 1, inputTokens: 812, outputTokens: 46 });
  });

  it('ends a model call in flight on model-error and counts it as failed, not as a call', async () => {
    const [runStart, callStart] = await recordedRun('plain-agent-run.jsonl');
    const failure: ForgeEvent = {
      ts: '2025-06-01T09:00:03.000Z',
      run_id: 'run-plain-0001',
      seq: 2,
      type: 'model-error',
      model: 'openai:gpt-4.1-mini',
      iteration: 1,
      error: { name: 'ModelCallError', message: 'rate limited' },
      status_code: 429,
      latency_ms: 2999,
    };
    const state = viewStateFromEvents([runStart as ForgeEvent, callStart as ForgeEvent, failure]);
    expect(state.modelCallsInFlight).toEqual([]);
    expect(state.totals).toMatchObject({ modelCalls: 0, failedModelCalls: 1 });
  });

  it('counts builtin uses from tool calls and takes run start time from the first event', async () => {
    const events = await recordedRun('skill-replay-run.jsonl');
    const state = viewStateFromEvents(events);
    expect(state.toolbox.map((entry) => [entry.name, entry.status, entry.uses])).toEqual([
      ['web_search', 'builtin', 1],
      ['read_page', 'builtin', 1],
      ['fetch_json', 'builtin', 1],
      ['write_file', 'builtin', 1],
    ]);
    expect(state.startedAtMs).toBe(Date.parse('2025-06-03T08:15:00.000Z'));
    expect(state.runId).toBe('run-skill-0003');
  });

  it('marks the dollar total as a lower bound when a call has no known price', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const unpriced = events.map((event) => (event.type === 'model-call' && event.iteration === 2 ? { ...event, cost_usd: null } : event));
    const state = viewStateFromEvents(unpriced);
    const priced = modelCalls(events).filter((call) => call.iteration !== 2);
    expect(state.totals.unpricedCalls).toBe(1);
    expect(state.totals.costUsd).toBeCloseTo(priced.reduce((sum, call) => sum + (call.cost_usd ?? 0), 0), 10);
  });

  it('keeps only the newest events in the stream, while counting them all', async () => {
    const [runStart] = await recordedRun('plain-agent-run.jsonl');
    const texts: ForgeEvent[] = Array.from({ length: streamCapacity + 20 }, (_, index) => ({
      ts: '2025-06-01T09:00:01.000Z',
      run_id: 'run-plain-0001',
      seq: index + 1,
      type: 'assistant-text',
      iteration: 1,
      text: `note ${index}`,
    }));
    const state = viewStateFromEvents([runStart as ForgeEvent, ...texts]);
    expect(state.eventCount).toBe(streamCapacity + 21);
    expect(state.stream).toHaveLength(streamCapacity);
    expect(state.stream.at(-1)).toMatchObject({ text: `note ${streamCapacity + 19}` });
  });

  it('never mutates the state it is given', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const before = viewStateFromEvents(events.slice(0, 10));
    const snapshot = structuredClone(before);
    viewStateFromEvents(events.slice(10), before);
    expect(before).toEqual(snapshot);
  });
});
