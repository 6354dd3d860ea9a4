import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store, ToolCallRecord } from '../../core/index.js';
import { dropSchema, freshSchemaName, onSchema, POSTGRES_TEST_URL } from '../../../test/support/postgres-test-schema.js';
import { awkwardJson, modelCall, newRun, runStartEvent, textMessage, toolCallStartEvent } from './contract/contract-fixtures.js';
import { stateOf } from './contract/run-states-contract.js';
import { openStore } from './open-store.js';
import { copyStore, StoreCopyError, type TableCopied } from './store-copy.js';

/** Records of every kind, as a store's users write them: ids and ordinals with gaps (a deleted run, a deleted message's conversation). */
async function fill(store: Store): Promise<void> {
  for (const id of ['run-1', 'run-gone', 'run-2']) await store.runs.create({ ...newRun(id), ...(id === 'run-2' ? { userId: 'u-1', agent: { slug: 'helper', version: 2 } } : {}) });
  await store.runs.delete('run-gone');
  const toolCall = (runId: string, tool: string, durationMs: number): ToolCallRecord => ({ runId, callId: `call-${tool}`, tool, ok: true, errorName: null, cached: false, durationMs, bytesIn: 12, bytesOut: 340, at: '2026-01-02T03:04:06.000Z' });
  await store.transaction(async (writes) => {
    await writes.events.appendAll([runStartEvent('run-1', 0), toolCallStartEvent('run-1', 1, awkwardJson)]);
    await writes.steps.record({ runId: 'run-1', index: 0, callId: 'call-1', tool: 'web_search', input: awkwardJson, output: 'found', error: null, durationMs: 12.5 });
    await writes.toolCalls.recordAll([toolCall('run-1', 'web_search', 12.5), toolCall('run-1', 'read_url', 40.25)]);
    await writes.modelCalls.recordAll([modelCall({ runId: 'run-1' }), modelCall({ runId: 'run-1', costUsd: null, purpose: 'synthesis' })]);
    await writes.runs.update('run-1', { status: 'completed', haltReason: 'final_answer', answer: 'forty-two', llmCalls: 2, inputTokens: 3000, outputTokens: 440, costUsd: 0.00096 });
  });
  await store.events.append(runStartEvent('run-2', 0));
  await store.runStates.save(stateOf('run-2', 1));
  await store.approvals.request({ runId: 'run-2', callId: 'call_1', tool: 'http_request', inputDigest: 'ab'.repeat(32), reason: 'writes', expiresAt: null });
  await store.approvals.grant({ id: 'g-1', scope: 'run:run-2', tool: 'shell', grantedBy: 'cli', runId: 'run-2', callId: 'call_1', createdAt: '2026-01-02T03:04:05.000Z', seal: 'k1.mac' });
  await store.conversations.create({ id: 'c-gone' });
  await store.conversations.appendMessages('c-gone', [textMessage('user', 'forgotten')]);
  await store.conversations.create({ id: 'c-1', title: 'kept', userId: 'u-1' });
  await store.conversations.appendMessages('c-1', [textMessage('user', 'question'), { ...textMessage('assistant', 'answer'), model: 'openai:gpt-4.1-mini', inputTokens: 10, outputTokens: 2 }]);
  await store.skills.save({ id: 'sk-1', name: 'order-status', description: 'looks an order up', document: { version: 1, steps: [awkwardJson] }, note: 'first' });
  await store.skills.save({ id: 'sk-1', name: 'order-status', description: 'looks an order up, faster', document: { version: 1, steps: [] }, note: 'second' });
  await store.skills.setStatus('order-status', 'stale', 'the site changed');
  await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: 'v2.k1.sealed', enabledTools: ['echo'], trustAnnotations: true });
  await store.toolbox.put({ name: 'count_links', status: 'promoted', entry: { name: 'count_links', awkward: awkwardJson }, updatedAt: '2026-01-02T03:04:05.000Z', uses: 3, owner: null });
  await store.toolbox.put({ name: 'extract_dates', status: 'failed', entry: { name: 'extract_dates' }, updatedAt: '2026-01-02T03:04:05.000Z', uses: 0, owner: 'u-1' });
  await store.accounts.createUser({ id: 'u-1', email: 'Ada@Example.com', passwordHash: '$argon2id$hash', role: 'admin' });
  await store.accounts.createSession({ id: 's-1', userId: 'u-1', refreshHash: 'h0', expiresAt: '2099-01-01T00:00:00.000Z' });
  await store.accounts.createApiKey({ id: 'k-1', userId: 'u-1', name: 'ci', keyHash: 'kh', scopes: ['runs:read'], expiresAt: null });
  await store.providerKeys.put({ userId: 'u-1', provider: 'openai', sealedKey: 'v2.k1.a.b.c', last4: 'abcd' });
  await store.marketplace.upsertProduct({ id: 'p-1', name: 'order-status', sellerId: 'u-1', skillId: 'sk-1', skillVersion: 2, description: 'where is my order', priceMinor: 250, currency: 'EUR', outputFields: ['status'], published: true });
  await store.marketplace.createPurchase({ id: 'b-1', productId: 'p-1', customerId: 'u-cust', skillVersion: 2, currency: 'EUR' });
  await store.marketplace.finishPurchase('b-1', { runId: 'run-2', status: 'completed', answer: 'Shipped.', costUsd: 0.0012, priceMinor: 250 });
  await store.policies.save({ scope: 'installation', document: { version: 1, rules: [] }, author: 'cli', message: 'first' });
  await store.policies.save({ scope: 'installation', document: { version: 1, rules: [{ tool: 'shell', decision: 'block' }] }, author: 'ada', message: 'second' });
  await store.agents.create('helper', { name: 'Helper', definition: { prompt: 'one' }, changedFields: [], message: 'created', author: 'ada' }, { userId: 'u-1' });
  await store.agents.addVersion('helper', { name: 'Helper', definition: { prompt: 'two' }, changedFields: ['prompt'], message: 'edited', author: 'ada' }, 1);
}

/** Everything `fill` wrote, read back through the Store interface alone. */
async function snapshot(store: Store) {
  return {
    runs: await store.runs.list(),
    events: [await store.events.list('run-1'), await store.events.list('run-2')],
    steps: await store.steps.list('run-1'),
    modelCalls: await store.modelCalls.list('run-1'),
    stats: await store.stats.summarize(),
    runState: await store.runStates.get('run-2'),
    approvals: await store.approvals.list(),
    grants: await store.approvals.grants(),
    conversations: await store.conversations.list(),
    messages: [await store.conversations.listMessages('c-gone'), await store.conversations.listMessages('c-1')],
    skills: await store.skills.list(),
    skillVersions: await store.skills.versions('order-status'),
    mcpServers: await store.mcpServers.list(),
    toolbox: await store.toolbox.list(),
    users: await store.accounts.listUsers(),
    session: await store.accounts.getSession('s-1'),
    apiKeys: await store.accounts.listApiKeys('u-1'),
    providerKeys: await store.providerKeys.list(),
    products: await store.marketplace.listProducts(),
    purchase: await store.marketplace.getPurchase('b-1'),
    policies: await store.policies.versions('installation'),
    agents: await store.agents.list(),
    agentVersions: await store.agents.versions('helper'),
  };
}

describe('copyStore from the embedded store into PostgreSQL', () => {
  let folder: string;
  let schema: string;
  let source: string;
  let target: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'forge-copy-'));
    source = join(folder, 'forge.db');
    schema = freshSchemaName();
    await onSchema('public', (client) => client.query(`CREATE SCHEMA ${schema}`));
    target = `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  });

  afterEach(async () => {
    await dropSchema(schema);
    await rm(folder, { recursive: true, force: true });
  });

  it('copies every table, owners first, and the PostgreSQL store reads back the same records, ids and order kept', async () => {
    const embedded = await openStore({ url: source });
    await fill(embedded);
    const before = await snapshot(embedded);
    await embedded.close();
    const heard: TableCopied[] = [];

    const copy = await copyStore({ from: source, to: target, batchSize: 2, onTable: (copied) => heard.push(copied) });

    const server = await openStore({ url: target });
    try {
      expect(await snapshot(server)).toEqual(before);
      expect(copy.tables).toEqual(heard);
      const order = copy.tables.map((table) => table.table);
      const owners: [string, string][] = [['runs', 'events'], ['runs', 'steps'], ['runs', 'tool_calls'], ['conversations', 'messages'], ['users', 'sessions'], ['products', 'purchases'], ['agents', 'agent_versions']];
      for (const [owner, owned] of owners) {
        expect(order.indexOf(owner), `${owner} before ${owned}`).toBeLessThan(order.indexOf(owned));
      }
      expect(order).not.toContain('schema_migrations');
      expect(Object.fromEntries(copy.tables.map((table) => [table.table, table.rows]))).toMatchObject({ runs: 2, events: 3, steps: 1, tool_calls: 2, model_calls: 2, messages: 3, skill_versions: 2, policy_versions: 2, agent_versions: 2 });
      expect(copy.rows).toBe(copy.tables.reduce((sum, table) => sum + table.rows, 0));
      // The sequences moved past the copied ids: new rows never take one, and sort after the copied ones.
      const [appended] = await server.conversations.appendMessages('c-1', [textMessage('user', 'after the copy')]);
      expect(appended!.id).toBeGreaterThan(Math.max(...before.messages.flat().map((message) => message.id)));
      await server.runs.create(newRun('run-3'));
      expect((await server.runs.list()).map((run) => run.id)).toEqual(['run-3', 'run-2', 'run-1']);
    } finally {
      await server.close();
    }
  });

  it('refuses a target that already holds records, naming them and changing nothing', async () => {
    const embedded = await openStore({ url: source });
    await fill(embedded);
    await embedded.close();
    const server = await openStore({ url: target });
    await server.runs.create(newRun('already-here'));
    await server.close();

    const refusal = await copyStore({ from: source, to: target }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(StoreCopyError);
    expect((refusal as StoreCopyError).message).toMatch(/already holds records \(runs: 1\).*nothing was copied/);
    expect((refusal as StoreCopyError).hint).toMatch(/CREATE SCHEMA/);
    expect(await onSchema(schema, async (client) => (await client.query('SELECT id FROM runs')).rows)).toEqual([{ id: 'already-here' }]);
    expect(await onSchema(schema, async (client) => Number((await client.query('SELECT COUNT(*) AS n FROM events')).rows[0].n))).toBe(0);
  });

  it('copies only into PostgreSQL, and never a store onto itself', async () => {
    await expect(copyStore({ from: source, to: join(folder, 'other.db') })).rejects.toThrow(/--to: names no PostgreSQL server/);
    await expect(copyStore({ from: target, to: target })).rejects.toThrow(/cannot be copied onto itself/);
  });
});
