import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishRun } from '../engine/index.js';
import type { ForgeEvent, Store } from '../core/index.js';
import { InProcessEventBus } from '../events/index.js';
import { openStore } from '../adapters/store/index.js';
import { RunService } from './run-service.js';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the run service', () => {
  let home: string;
  let store: Store;
  let bus: InProcessEventBus;
  let service: RunService;
  const owner = { pid: process.pid, host: 'this-host' };

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-runs-'));
    store = await openStore({ url: `file:${path.join(home, 'forge.db')}` });
    bus = new InProcessEventBus();
    service = new RunService({ store, bus, home, owner });
  });

  afterEach(async () => {
    await store.close();
    await rm(home, { recursive: true, force: true });
  });

  it("releases what a run held in this process however it stops: completed, failed, cancelled", async () => {
    const released: string[] = [];
    const releasing = new RunService({ store, bus, home, owner, releaseRun: async (runId) => void released.push(runId) });
    const completed = releasing.start({ kind: 'tool-call', task: 'ok', model: 'none', execute: async ({ emitter, meter }) => finishRun(emitter, meter, { status: 'completed', haltReason: 'final_answer', answer: 'done', error: null, startedAt: 0 }) });
    const failed = releasing.start({ kind: 'tool-call', task: 'throws', model: 'none', execute: async () => Promise.reject(new Error('boom')) });
    const cancelled = releasing.start({
      kind: 'tool-call',
      task: 'cancelled',
      model: 'none',
      execute: async ({ emitter, meter, signal }) => {
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return finishRun(emitter, meter, { status: 'cancelled', haltReason: 'cancelled', answer: null, error: null, startedAt: 0 });
      },
    });
    cancelled.cancel();
    await Promise.all([completed.result, failed.result.catch(() => undefined), cancelled.result]);
    expect(released.sort()).toEqual([completed.runId, failed.runId, cancelled.runId].sort());
  });

  it('starts a run at once, streams its events from any seq, and settles once the run log and the store hold all of it', async () => {
    const handle = service.start({
      kind: 'tool-call',
      task: 'tool noop',
      model: 'none',
      execute: async ({ emitter, meter }) => {
        const started = performance.now();
        emitter.emit({ type: 'run-start', task: 'tool noop', model: 'none', max_iterations: 1, conversation_id: null, tools: [] });
        emitter.emit({ type: 'assistant-text', iteration: 1, text: 'working' });
        return finishRun(emitter, meter, { status: 'completed', haltReason: 'final_answer', answer: 'done', error: null, startedAt: started });
      },
    });
    expect(handle.runId).toMatch(/^[0-9a-f]{12}$/);
    const live: ForgeEvent[] = [];
    for await (const event of handle.events()) live.push(event);
    const later: ForgeEvent[] = [];
    for await (const event of handle.events(1)) later.push(event);

    const result = await handle.result;

    expect(result).toMatchObject({ run_id: handle.runId, status: 'completed', answer: 'done' });
    expect(live.map((event) => event.type)).toEqual(['run-start', 'assistant-text', 'run-end']);
    expect(later.map((event) => event.seq)).toEqual([1, 2]);
    expect(await store.runs.get(handle.runId)).toMatchObject({ kind: 'tool-call', status: 'completed', owner, logFile: handle.logFile });
    expect((await store.events.list(handle.runId)).map((event) => event.type)).toEqual(['run-start', 'assistant-text', 'run-end']);
    expect((await readFile(handle.logFile, 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('ends a run whose work throws, failed with the error, so it is never left running', async () => {
    const handle = service.start({
      kind: 'agent',
      task: 'boom',
      model: 'none',
      execute: async ({ emitter }) => {
        emitter.emit({ type: 'run-start', task: 'boom', model: 'none', max_iterations: 1, conversation_id: null, tools: [] });
        throw new Error('the loop broke');
      },
    });

    await expect(handle.result).rejects.toThrow('the loop broke');
    expect(await store.runs.get(handle.runId)).toMatchObject({ status: 'failed', haltReason: 'error', error: 'the loop broke' });
    expect((await store.events.list(handle.runId)).at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });
  });

  it('cancels through its handle and through the caller\'s signal', async () => {
    const caller = new AbortController();
    const seen: string[] = [];
    const work = (label: string) => async ({ signal, emitter, meter }: Parameters<Parameters<RunService['start']>[0]['execute']>[0]) => {
      const started = performance.now();
      // A cancel may come before the work starts (the run row is written first): the signal is then already aborted.
      if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      seen.push(`${label}: ${String(signal.reason)}`);
      return finishRun(emitter, meter, { status: 'cancelled', haltReason: 'cancelled', answer: null, error: null, startedAt: started });
    };
    const byHandle = service.start({ kind: 'agent', task: 'a', model: 'none', execute: work('handle') });
    const bySignal = service.start({ kind: 'agent', task: 'b', model: 'none', signal: caller.signal, execute: work('signal') });
    byHandle.cancel('stop now');
    caller.abort('interrupted by the user (Ctrl-C)');

    expect(await byHandle.result).toMatchObject({ status: 'cancelled' });
    expect(await bySignal.result).toMatchObject({ status: 'cancelled' });
    expect(seen.sort()).toEqual(['handle: stop now', 'signal: interrupted by the user (Ctrl-C)']);
  });

  it('ends runs a dead process left running as failed (interrupted), after their last logged event, and leaves live ones alone', async () => {
    const logFile = path.join(home, 'runs', 'dead.jsonl');
    const base = { ts: '2026-01-01T00:00:00.000Z', run_id: 'run-dead' };
    const logged = [
      { ...base, seq: 0, type: 'tool-call-start', call_id: 'c1', tool: 'web_search', input: { query: 'q' }, iteration: 1 },
      { ...base, seq: 1, type: 'tool-result', call_id: 'c1', tool: 'web_search', output: 'found', truncated: false, untrusted: true, duration_ms: 4 },
      { ...base, seq: 2, type: 'assistant-text', iteration: 2, text: 'thinking' },
    ].map((event) => JSON.stringify(event));
    await store.runs.create({ id: 'run-dead', task: 'left behind', model: 'm', conversationId: null, owner: { pid: deadPid(), host: 'this-host' }, logFile });
    await mkdir(path.dirname(logFile), { recursive: true });
    // The dead process was killed mid-write: its last line is cut off.
    await writeFile(logFile, `${logged.join('\n')}\n{"ts":"2026-01-01T00:00:00.000Z","run_id":"run-de`);
    await store.runs.create({ id: 'run-mine', task: 'still going', model: 'm', conversationId: null, owner });
    await store.runs.create({ id: 'run-elsewhere', task: 'on another machine', model: 'm', conversationId: null, owner: { pid: 1, host: 'other-host' } });
    await store.runs.create({ id: 'run-ownerless', task: 'from before owners', model: 'm', conversationId: null });

    expect((await service.endInterruptedRuns()).sort()).toEqual(['run-dead', 'run-ownerless']);

    expect(await store.runs.get('run-dead')).toMatchObject({ status: 'failed', haltReason: 'interrupted', error: expect.stringContaining('ended before the run finished') });
    expect(await store.runs.get('run-mine')).toMatchObject({ status: 'running' });
    expect(await store.runs.get('run-elsewhere')).toMatchObject({ status: 'running' });
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as ForgeEvent);
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', seq: 3, status: 'failed', halt_reason: 'interrupted' });
    // The store missed the logged events (it is written at most every 100 ms): it holds them now, once, in order.
    expect(await store.events.list('run-dead')).toEqual(lines);
    expect(lines.map((event) => event.seq)).toEqual([0, 1, 2, 3]);
    expect(await store.steps.list('run-dead')).toMatchObject([{ index: 0, callId: 'c1', tool: 'web_search', input: { query: 'q' }, output: 'found' }]);
    expect(await service.endInterruptedRuns()).toEqual([]);
  });

  it('ends a run whose run-end reached its log but not the store as its log says, without a second run-end', async () => {
    const logFile = path.join(home, 'runs', 'finished.jsonl');
    const base = { ts: '2026-01-01T00:00:00.000Z', run_id: 'run-finished' };
    const logged = [
      { ...base, seq: 0, type: 'run-start', task: 'finished just in time', model: 'm', max_iterations: 2, conversation_id: null, tools: [] },
      { ...base, seq: 1, type: 'model-call', model: 'm', iteration: 1, purpose: 'agent-step', tokens: { input: 12, output: 3 }, cost_usd: null, latency_ms: 5, input_hash: 'h', finish_reason: 'stop', tool_calls: 0 },
      { ...base, seq: 2, type: 'run-end', status: 'completed', halt_reason: 'final_answer', answer: 'done', llm_calls: 1, tokens: { input: 12, output: 3 }, cost_usd: null, error: null, duration_ms: 9 },
    ];
    await store.runs.create({ id: 'run-finished', task: 'finished just in time', model: 'm', conversationId: null, owner: { pid: deadPid(), host: 'this-host' }, logFile });
    // The store got the first event; the process died before the last commit.
    await store.events.appendAll([logged[0] as ForgeEvent]);
    await mkdir(path.dirname(logFile), { recursive: true });
    await writeFile(logFile, logged.map((event) => `${JSON.stringify(event)}\n`).join(''));

    expect(await service.endInterruptedRuns()).toEqual(['run-finished']);

    expect(await store.runs.get('run-finished')).toMatchObject({ status: 'completed', haltReason: 'final_answer', answer: 'done', llmCalls: 1, error: null });
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as ForgeEvent);
    expect(lines).toEqual(logged);
    expect(await store.events.list('run-finished')).toEqual(logged);
    expect(await store.modelCalls.list('run-finished')).toHaveLength(1);
  });
});
