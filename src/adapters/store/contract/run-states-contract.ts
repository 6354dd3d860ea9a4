import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, RUN_STATE_VERSION, type RunState, type Store } from '../../../core/index.js';
import type { StoreContractContext } from './store-under-test.js';
import { newRun, rejectionOf } from './contract-fixtures.js';

export function stateOf(runId: string, turn: number): RunState {
  return {
    format: 'forge-run-state',
    version: RUN_STATE_VERSION,
    run_id: runId,
    kind: 'agent',
    task: 'find the 日本語 docs',
    model: { slug: 'openai:gpt-4.1-mini', base_url: null, settings: {} },
    system: null,
    conversation_id: null,
    tools: ['web_search'],
    max_iterations: 10,
    turn,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'find the 日本語 docs' }] }],
    steps: [],
    pending: turn === 0 ? [] : [{ call_id: `call_${turn}`, tool: 'web_search', input: { query: 'docs' } }],
    last_text: '',
    totals: { llm_calls: turn, input_tokens: 10 * turn, output_tokens: turn, cost_usd: null },
    converge: null,
  };
}

/** `Store.runStates`, `Store.approvals` and `runs.claim`: what pausing, resuming and answering rely on. */
export function describeRunStatesContract(context: StoreContractContext): void {
  describe('run states', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('keeps each run\'s last checkpoint only, as written', async () => {
      await store.runs.create(newRun('run-1'));
      expect(await store.runStates.get('run-1')).toBeUndefined();
      await store.runStates.save(stateOf('run-1', 0));
      await store.runStates.save(stateOf('run-1', 2));
      expect(await store.runStates.get('run-1')).toEqual(stateOf('run-1', 2));
    });

    it('refuses a checkpoint of a run that does not exist', async () => {
      expect(await rejectionOf(store.runStates.save(stateOf('ghost', 1)))).toBeInstanceOf(NotFoundError);
    });

    it('lets exactly one claimant take a stopped run over, and only from the states it names', async () => {
      await store.runs.create(newRun('run-2'));
      await store.runs.update('run-2', { status: 'waiting', haltReason: 'awaiting_approval' });
      expect(await store.runs.claim('run-2', { pid: 1, host: 'a' }, ['failed'])).toBe(false);
      const claims = await Promise.all([store.runs.claim('run-2', { pid: 1, host: 'a' }, ['waiting']), store.runs.claim('run-2', { pid: 2, host: 'b' }, ['waiting'])]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.runs.get('run-2')).toMatchObject({ status: 'running', haltReason: null, error: null, owner: claims[0] ? { pid: 1, host: 'a' } : { pid: 2, host: 'b' } });
      expect(await store.runs.claim('missing', { pid: 1, host: 'a' }, ['waiting'])).toBe(false);
    });
  });

  describe('approvals', () => {
    let store: Store;
    beforeEach(async () => {
      store = context.subject().store;
      await store.runs.create(newRun('run-a'));
    });
    const ask = { runId: 'run-a', callId: 'call_1', tool: 'http_request', inputDigest: 'ab'.repeat(32), reason: 'high risk', expiresAt: '2030-01-01T00:00:00.000Z' };

    it('records a request once, keeping the first when asked again', async () => {
      const first = await store.approvals.request(ask);
      expect(first).toMatchObject({ ...ask, status: 'pending', answerReason: null, answeredAt: null });
      expect(await store.approvals.request({ ...ask, reason: 'asked again', inputDigest: 'cd'.repeat(32) })).toEqual(first);
      expect(await store.approvals.list({ statuses: ['pending'] })).toEqual([first]);
      expect(await store.approvals.list({ runId: 'other' })).toEqual([]);
    });

    it('is answered once: of two answers racing, one wins; an answer is used once', async () => {
      await store.approvals.request(ask);
      const answers = await Promise.all([store.approvals.settle('run-a', 'call_1', answer('approved', 'fine')), store.approvals.settle('run-a', 'call_1', answer('denied', 'no'))]);
      expect(answers.filter((answer) => answer !== undefined)).toHaveLength(1);
      const uses = await Promise.all([store.approvals.use('run-a', 'call_1'), store.approvals.use('run-a', 'call_1')]);
      expect(uses.filter(Boolean)).toHaveLength(1);
      expect(await store.approvals.get('run-a', 'call_1')).toMatchObject({ status: 'used' });
      expect(await store.approvals.settle('run-a', 'call_1', answer('approved', 'again'))).toBeUndefined();
    });

    it('cannot use a request nobody answered, and refuses one for a run that does not exist', async () => {
      await store.approvals.request(ask);
      expect(await store.approvals.use('run-a', 'call_1')).toBe(false);
      expect(await store.approvals.settle('run-a', 'call_1', { ...answer('expired', null), seal: null })).toMatchObject({ status: 'expired', seal: null });
      expect(await store.approvals.use('run-a', 'call_1')).toBe(false);
      expect(await rejectionOf(store.approvals.request({ ...ask, runId: 'ghost' }))).toBeInstanceOf(NotFoundError);
    });

    it('keeps the seal and the answer time it was settled with', async () => {
      await store.approvals.request(ask);
      expect(await store.approvals.settle('run-a', 'call_1', answer('approved', 'ok'))).toMatchObject({ status: 'approved', answerReason: 'ok', answeredAt: '2026-12-03T10:00:00.000Z', seal: 'k1.mac' });
    });

    it('records, lists and revokes "approve always" grants, once', async () => {
      const grant = { id: 'g_1', scope: 'run:run-a', tool: 'shell', grantedBy: 'cli', runId: 'run-a', callId: 'call_1', createdAt: '2026-12-03T10:00:00.000Z', seal: 'k1.mac' };
      expect(await store.approvals.grant(grant)).toEqual({ ...grant, revokedAt: null, revokedBy: null });
      await store.approvals.grant({ ...grant, id: 'g_2', scope: 'agent:researcher', tool: 'file_write', createdAt: '2026-12-03T10:00:01.000Z' });
      expect((await store.approvals.grants({ scopes: ['run:run-a'], tool: 'shell' })).map((each) => each.id)).toEqual(['g_1']);
      expect((await store.approvals.grants({ scopes: ['run:run-a', 'agent:researcher'] })).map((each) => each.id)).toEqual(['g_1', 'g_2']);
      expect(await store.approvals.grants({ scopes: [] })).toEqual([]);
      const revocations = await Promise.all([store.approvals.revokeGrant('g_1', 'alice'), store.approvals.revokeGrant('g_1', 'bob')]);
      expect(revocations.filter((each) => each !== undefined)).toHaveLength(1);
      expect((await store.approvals.grants()).map((each) => each.id)).toEqual(['g_2']);
      expect((await store.approvals.grants({ revoked: true })).find((each) => each.id === 'g_1')).toMatchObject({ revokedBy: expect.stringMatching(/^(alice|bob)$/) });
      expect(await store.approvals.revokeGrant('missing', 'alice')).toBeUndefined();
    });
  });
}

function answer(to: 'approved' | 'denied' | 'expired', reason: string | null) {
  return { to, reason, answeredAt: '2026-12-03T10:00:00.000Z', seal: 'k1.mac' };
}
