import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type AnyTool, type ForgeEvent } from '../../core/index.js';
import { StoredApprovalGate } from '../../runs/index.js';
import { answerApproval, listGrants, revokeGrant } from './approval-answers.js';
import { openRuntime, type ForgeRuntime } from '../../runs/task-runs.js';
import { resumeTask, runTask } from '../../runs/run-shortcuts.js';
import { storedApprovals } from './stored-approvals.js';

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

/** Approvals attacked: forged and altered answers, answers used after they expired, "approve always" and its revocation. */
describe('approval security', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  const calls: unknown[] = [];

  beforeAll(async () => {
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-approval-security-'));
    for (const id of ['forged_1', 'altered_1', 'late_1', 'other_key_1']) {
      mock.on({ userMessage: `write ${id}`, hasToolResult: false }, { toolCalls: [{ id, name: 'ledger_write', arguments: { entry: id } }] });
      mock.on({ toolCallId: id }, { content: `done with ${id}` });
    }
    // "approve always": the first call pauses; once approved always, the second runs without asking.
    mock.on({ userMessage: 'write twice', hasToolResult: false }, { toolCalls: [{ id: 'always_1', name: 'ledger_write', arguments: { entry: 'first' } }] });
    mock.on({ toolCallId: 'always_1' }, { toolCalls: [{ id: 'always_2', name: 'ledger_write', arguments: { entry: 'second' } }] });
    mock.on({ toolCallId: 'always_2' }, { content: 'wrote both' });
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_REQUIRE_APPROVAL: 'ledger_write' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(ledgerTool(calls));
  });
  afterAll(async () => {
    await runtime.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  async function paused(id: string): Promise<string> {
    const result = await runTask(runtime, { task: `write ${id}`, model: 'openai:gpt-4.1-mini', maxRetries: 0, approvals: storedApprovals(runtime) });
    expect(result).toMatchObject({ status: 'waiting', waiting_on: [id] });
    return result.run_id;
  }

  async function events(runId: string): Promise<ForgeEvent[]> {
    return runtime.store.events.list(runId);
  }

  it('refuses an approval written into the database instead of given through Forge, and the tool never runs', async () => {
    const runId = await paused('forged_1');
    // The attacker flips the row (status approved, no signature, or a made-up one).
    await runtime.store.approvals.settle(runId, 'forged_1', { to: 'approved', reason: 'trust me', answeredAt: new Date().toISOString(), seal: 'deadbeef.bm90IGEgcmVhbCBtYWM' });
    const resumed = await resumeTask(runtime, runId, { approvals: storedApprovals(runtime) });
    expect(calls).toEqual([]);
    const step = resumed.steps.find((each) => each.call_id === 'forged_1');
    expect(step).toMatchObject({ ok: false, error: { name: 'ApprovalDeniedError' } });
    expect(step?.output).toContain('not honoured');
    expect((await events(runId)).filter((event) => event.type === 'approval-answer')).toEqual([expect.objectContaining({ call_id: 'forged_1', decision: 'denied' })]);
  });

  it('refuses a real approval whose row was altered afterwards (approved for one expiry, stretched to another)', async () => {
    const runId = await paused('altered_1');
    const asked = (await runtime.store.approvals.get(runId, 'altered_1'))!;
    const answeredAt = new Date().toISOString();
    const seal = runtime.approvalSealer.sealAnswer({ ...asked, status: 'denied', answeredAt });
    // Signed as a denial, stored as an approval: the signature no longer matches the row.
    await runtime.store.approvals.settle(runId, 'altered_1', { to: 'approved', reason: 'changed', answeredAt, seal });
    const resumed = await resumeTask(runtime, runId, { approvals: storedApprovals(runtime) });
    expect(calls).toEqual([]);
    expect(resumed.steps.find((each) => each.call_id === 'altered_1')?.output).toContain('forged or changed');
  });

  it('tells the model "expired" when an approval is used after its expiry, and the tool never runs', async () => {
    const runId = await paused('late_1');
    // Approved through the answer path, but the run comes back after the approval's time (a clock 2 h on).
    const asked = (await runtime.store.approvals.get(runId, 'late_1'))!;
    const answeredAt = new Date().toISOString();
    await runtime.store.approvals.settle(runId, 'late_1', { to: 'approved', reason: 'ok', answeredAt, seal: runtime.approvalSealer.sealAnswer({ ...asked, status: 'approved', answeredAt }) });
    const later = new StoredApprovalGate(runtime.store, { sealer: runtime.approvalSealer, now: () => Date.now() + 2 * 3600_000 });
    const resumed = await resumeTask(runtime, runId, { approvals: later });
    expect(calls).toEqual([]);
    expect(resumed.steps.find((each) => each.call_id === 'late_1')?.output).toMatch(/expired/);
    expect((await events(runId)).find((event) => event.type === 'approval-answer')).toMatchObject({ decision: 'expired' });
    expect(await runtime.store.approvals.get(runId, 'late_1')).toMatchObject({ status: 'used' });
  });

  it('refuses an approval signed under another secret key', async () => {
    const runId = await paused('other_key_1');
    const other = await openRuntime({ FORGE_HOME: home, FORGE_SECRET_KEY: 'ab'.repeat(32) }, home, { mcp: { startupWaitMs: 0 } });
    try {
      const asked = (await other.store.approvals.get(runId, 'other_key_1'))!;
      const answeredAt = new Date().toISOString();
      await other.store.approvals.settle(runId, 'other_key_1', { to: 'approved', reason: 'elsewhere', answeredAt, seal: other.approvalSealer.sealAnswer({ ...asked, status: 'approved', answeredAt }) });
    } finally {
      await other.close();
    }
    const resumed = await resumeTask(runtime, runId, { approvals: storedApprovals(runtime) });
    expect(calls).toEqual([]);
    expect(resumed.steps.find((each) => each.call_id === 'other_key_1')?.output).toContain('another secret key');
  });

  it('"approve always" is recorded as an event, approves later calls of the tool in the run, and can be revoked', async () => {
    const first = await runTask(runtime, { task: 'write twice', model: 'openai:gpt-4.1-mini', maxRetries: 0, approvals: storedApprovals(runtime) });
    expect(first).toMatchObject({ status: 'waiting', waiting_on: ['always_1'] });
    const answered = await answerApproval(runtime, { runId: first.run_id, callId: 'always_1', decision: 'approved', always: 'run', answeredBy: 'ada' });
    expect(answered.grant).toMatchObject({ scope: `run:${first.run_id}`, tool: 'ledger_write', grantedBy: 'ada', revokedAt: null });
    expect(answered.resumed).toMatchObject({ status: 'completed', answer: 'wrote both' });
    expect(calls).toEqual([{ entry: 'first' }, { entry: 'second' }]);
    const recorded = await events(first.run_id);
    expect(recorded.filter((event) => event.type === 'approval-request').map((event) => event.type === 'approval-request' && event.call_id)).toEqual(['always_1']);
    expect(recorded.filter((event) => event.type === 'approval-answer')).toEqual([
      expect.objectContaining({ call_id: 'always_1', decision: 'approved', grant_id: answered.grant!.id }),
      expect.objectContaining({ call_id: 'always_2', decision: 'approved', grant_id: answered.grant!.id, reason: expect.stringContaining('approved always') }),
    ]);

    const gate = storedApprovals(runtime);
    const next = { runId: first.run_id, tool: 'ledger_write', risk: 'medium' as const, sideEffect: 'write' as const, input: { entry: 'third' }, reason: 'needs approval' };
    expect(await gate.request({ ...next, callId: 'always_3' })).toMatchObject({ approved: true, grant: { id: answered.grant!.id } });
    const revoked = await revokeGrant(runtime, answered.grant!.id, 'ada');
    expect(revoked.revokedBy).toBe('ada');
    await expect(revokeGrant(runtime, answered.grant!.id, 'ada')).rejects.toThrow('revoked already');
    expect(await listGrants(runtime, { runId: first.run_id })).toEqual([]);
    expect(await gate.request({ ...next, callId: 'always_4' })).toMatchObject({ pending: true });
    // A grant written into the database by hand grants nothing.
    await runtime.store.approvals.grant({ ...revoked, id: 'g_forged', seal: 'x.y', createdAt: new Date().toISOString() });
    expect(await gate.request({ ...next, callId: 'always_5' })).toMatchObject({ pending: true });
  });
});
