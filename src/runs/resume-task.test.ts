import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../core/index.js';
import { RunNotResumableError } from './index.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';
import { openRuntime, type ForgeRuntime } from './task-runs.js';
import { answerApproval } from '../policy/approvals/approval-answers.js';
import { resumeTask, runTask } from './run-shortcuts.js';

function ledgerTool(calls: unknown[]): AnyTool {
  return defineTool({
    name: 'ledger_write',
    description: 'Writes an entry to the ledger.',
    inputSchema: z.object({ entry: z.string() }),
    risk: 'medium',
    sideEffect: 'write',
    async execute(input) {
      calls.push(input);
      return { written: input.entry };
    },
  });
}

/** Resume and approvals against one file store, across runtimes as two processes would open it. */
describe('resuming runs', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let env: Record<string, string>;
  const opened: ForgeRuntime[] = [];

  async function open(withLedger: unknown[] | undefined): Promise<ForgeRuntime> {
    const runtime = await openRuntime({ ...env, FORGE_REQUIRE_APPROVAL: 'ledger_write' }, home, { mcp: { startupWaitMs: 0 } });
    if (withLedger !== undefined) runtime.registry.register(ledgerTool(withLedger));
    opened.push(runtime);
    return runtime;
  }

  beforeAll(async () => {
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-resume-'));
    env = { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` };
    for (const id of ['ledger_a', 'ledger_b', 'ledger_c']) {
      mock.on({ userMessage: `write ${id}`, hasToolResult: false }, { toolCalls: [{ id, name: 'ledger_write', arguments: { entry: id } }] });
      mock.on({ toolCallId: id }, { content: `wrote ${id}` });
    }
    mock.on({ userMessage: 'probe the barrier', hasToolResult: false }, { toolCalls: [{ id: 'probe_1', name: 'barrier_probe', arguments: { entry: 'probe' } }] });
    mock.on({ toolCallId: 'probe_1' }, { content: 'probed' });
    mock.on({ userMessage: 'first converge question', hasToolResult: false }, { toolCalls: [{ id: 'fa1', name: 'final_answer', arguments: { answer: 'the first answer' } }] });
    mock.on({ userMessage: 'second converge question', hasToolResult: false }, { toolCalls: [{ id: 'fa2', name: 'final_answer', arguments: { answer: 'the second answer' } }] });
  });
  afterAll(async () => {
    for (const runtime of opened) await runtime.close().catch(() => undefined);
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  async function pausedRun(runtime: ForgeRuntime, id: string) {
    const paused = await runTask(runtime, { task: `write ${id}`, model: 'openai:gpt-4.1-mini', maxRetries: 0, approvals: storedApprovals(runtime) });
    expect(paused).toMatchObject({ status: 'waiting', halt_reason: 'awaiting_approval', waiting_on: [id] });
    return paused.run_id;
  }

  it('refuses to resume a run whose tool no longer exists, and leaves it waiting', async () => {
    const first = await open([]);
    const runId = await pausedRun(first, 'ledger_a');
    await first.close();
    const without = await open(undefined);
    await expect(resumeTask(without, runId)).rejects.toThrow(RunNotResumableError);
    await expect(resumeTask(without, runId)).rejects.toThrow('"ledger_write", which no longer exists');
    expect((await without.runs.get(runId)).status).toBe('waiting');
    await without.close();
  }, 30_000);

  it('an approval applies only to the input it was given for, and only once', async () => {
    const calls: unknown[] = [];
    const runtime = await open(calls);
    const runId = await pausedRun(runtime, 'ledger_b');
    // The input changes behind the answer's back: the stored checkpoint now asks for another entry.
    const raw = (await runtime.store.runStates.get(runId)) as { pending: Array<{ input: unknown }> };
    raw.pending[0]!.input = { entry: 'someone else' };
    await runtime.store.runStates.save(raw as never);
    const answered = await answerApproval(runtime, { runId, callId: 'ledger_b', decision: 'approved' });
    expect(calls).toEqual([]);
    expect(answered.resumed?.steps.at(-1)).toMatchObject({ ok: false, error: { name: 'ApprovalDeniedError' } });
    expect(answered.resumed?.steps.at(-1)?.output).toContain('not the one the approval was given for');

    // Straight at the gate: answered once, the same call may use it once.
    const gate = storedApprovals(runtime);
    const request = { runId, callId: 'direct', tool: 'ledger_write', risk: 'medium' as const, sideEffect: 'write' as const, input: { entry: 'x' }, reason: 'test' };
    expect(await gate.request(request)).toMatchObject({ pending: true });
    expect(await gate.request(request)).toMatchObject({ pending: true });
    const stored = (await runtime.store.approvals.get(runId, 'direct'))!;
    const answeredAt = new Date().toISOString();
    await runtime.store.approvals.settle(runId, 'direct', { to: 'approved', reason: 'fine', answeredAt, seal: runtime.approvalSealer.sealAnswer({ ...stored, status: 'approved', answeredAt }) });
    expect(await runtime.store.approvals.settle(runId, 'direct', { to: 'denied', reason: 'too late', answeredAt, seal: null })).toBeUndefined();
    expect(await gate.request(request)).toEqual({ approved: true, answered: true, reason: 'fine' });
    expect(await gate.request(request)).toMatchObject({ approved: false, reason: 'the answer to this call was already used once' });
  }, 30_000);

  it('two runtimes answering the same request: exactly one wins, and the tool runs once', async () => {
    const calls: unknown[] = [];
    const a = await open(calls);
    const b = await open(calls);
    const runId = await pausedRun(a, 'ledger_c');
    const outcomes = await Promise.allSettled([
      answerApproval(a, { runId, callId: 'ledger_c', decision: 'approved' }),
      answerApproval(b, { runId, callId: 'ledger_c', decision: 'approved' }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(calls).toEqual([{ entry: 'ledger_c' }]);
    expect((await a.runs.get(runId)).status).toBe('completed');
  }, 30_000);

  it('resumes after an approval with the model it started with: an openai-compatible slug keeps its base URL', async () => {
    const calls: unknown[] = [];
    mock.on({ userMessage: 'write entry_compat', hasToolResult: false }, { toolCalls: [{ id: 'entry_compat', name: 'ledger_write', arguments: { entry: 'entry_compat' } }] });
    mock.on({ toolCallId: 'entry_compat' }, { content: 'wrote entry_compat' });
    const first = await open(calls);
    const slug = `openai-compatible:gpt-4.1-mini@${mock.url}/v1`;
    const paused = await runTask(first, { task: 'write entry_compat', model: slug, maxRetries: 0, approvals: storedApprovals(first) });
    expect(paused).toMatchObject({ status: 'waiting', waiting_on: ['entry_compat'] });
    expect(((await first.store.runStates.get(paused.run_id)) as { model: unknown }).model).toEqual({ slug: 'openai-compatible:gpt-4.1-mini', base_url: `${mock.url}/v1`, settings: {} });
    await first.close();
    // Another process answers (nothing in its environment names the server): the run goes on against the same server.
    const second = await open(calls);
    const answered = await answerApproval(second, { runId: paused.run_id, callId: 'entry_compat', decision: 'approved' });
    expect(answered.resumed).toMatchObject({ status: 'completed', answer: 'wrote entry_compat', llm_calls: 2 });
    expect(calls).toEqual([{ entry: 'entry_compat' }]);
    expect((await second.runs.get(paused.run_id)).status).toBe('completed');
  }, 30_000);

  it('an approval whose resume is refused says so to the approver and leaves the run failed and resumable, never waiting', async () => {
    const calls: unknown[] = [];
    mock.on({ userMessage: 'write entry_refused', hasToolResult: false }, { toolCalls: [{ id: 'entry_refused', name: 'ledger_write', arguments: { entry: 'entry_refused' } }] });
    mock.on({ toolCallId: 'entry_refused' }, { content: 'wrote entry_refused' });
    const first = await open(calls);
    const runId = await pausedRun(first, 'entry_refused');
    await first.close();
    // The approver's process lacks the run's tool: the approval stands, the resume is refused, and the approver is told.
    const without = await open(undefined);
    const answered = await answerApproval(without, { runId, callId: 'entry_refused', decision: 'approved' });
    expect(answered).toMatchObject({ approval: { status: 'approved' }, resumed: null, resuming: false, resumeError: { name: 'RunNotResumableError', message: expect.stringContaining('"ledger_write", which no longer exists') } });
    const left = await without.runs.get(runId);
    expect(left).toMatchObject({ status: 'failed', haltReason: 'interrupted', error: expect.stringContaining('no longer exists') });
    await without.close();
    // Once the tool is back, the run is resumed by hand and the approved call runs, once.
    const restored = await open(calls);
    const resumed = await resumeTask(restored, runId);
    expect(resumed).toMatchObject({ status: 'completed', answer: 'wrote entry_refused' });
    expect(calls).toEqual([{ entry: 'entry_refused' }]);
  }, 30_000);

  it('commits the checkpoint and the call\'s tool-call-start to the store before a side-effecting tool runs', async () => {
    const runtime = await open([]);
    const seen: Array<{ started: boolean; pending: unknown }> = [];
    runtime.registry.register(
      defineTool({
        name: 'barrier_probe',
        description: 'Looks at what the store holds of its own run while it runs.',
        inputSchema: z.object({ entry: z.string() }),
        risk: 'medium',
        sideEffect: 'write',
        async execute(_input, context) {
          const events = await runtime.store.events.list(context.runId);
          const state = (await runtime.store.runStates.get(context.runId)) as { pending: Array<{ call_id: string }> } | undefined;
          seen.push({ started: events.some((event) => event.type === 'tool-call-start' && event.call_id === context.callId), pending: state?.pending.map((call) => call.call_id) });
          return 'ok';
        },
      }),
    );
    const result = await runTask(runtime, { task: 'probe the barrier', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(result.status).toBe('completed');
    expect(seen).toEqual([{ started: true, pending: ['probe_1'] }]);
    const state = (await runtime.store.runStates.get(result.run_id)) as { pending: Array<{ call_id: string }>; turn: number };
    // An agent run's last boundary is the one before its calls ran: their results are in its events.
    expect(state).toMatchObject({ pending: [{ call_id: 'probe_1' }], turn: 1 });
  }, 30_000);

  it('a convergence run continues its conversation and records it', async () => {
    const runtime = await open([]);
    const first = await runTask(runtime, { task: 'first converge question', model: 'openai:gpt-4.1-mini', converge: true, maxRetries: 0 });
    expect(first.status).toBe('completed');
    const second = await runTask(runtime, { task: 'second converge question', model: 'openai:gpt-4.1-mini', converge: true, conversationId: first.conversation_id, maxRetries: 0 });
    expect(second).toMatchObject({ status: 'completed', answer: 'the second answer', conversation_id: first.conversation_id });
    const seen = mock.getRequests().filter((request) => JSON.stringify(request.body).includes('second converge question')).at(-1);
    expect(JSON.stringify(seen?.body)).toContain('first converge question');
    const events = await runtime.store.events.list(second.run_id);
    expect(events[0]).toMatchObject({ type: 'run-start', conversation_id: first.conversation_id });
  }, 30_000);
});
