import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type RunRecord } from '../src/core/index.js';
import { openRuntime, startWorker, type ForgeRuntime, type RunWorker } from '../src/compose/index.js';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from './support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from './support/redis-test-keys.js';

const PASSWORD = 'a long enough password';

/**
 * Scaled mode, attacked through its queue (issue 26): whoever can add a job to the BullMQ queue is not
 * thereby anyone. A worker takes the account from the stored run, refuses a job whose payload disagrees
 * with the stored run (another account's id, another task, a run that does not exist) without running
 * or changing anything, and does nothing with a copy of a job whose run already started or finished.
 * A server runtime (the store and the queue) and two workers on one PostgreSQL schema and Redis prefix;
 * the attacker writes jobs with BullMQ itself. Model calls are counted at aimock, tool calls at the tool.
 */
describe('the scaled mode: a forged or replayed job runs nothing', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  const keys = redisTestKeys('forged-jobs');
  const schema = freshSchemaName();
  const homes: string[] = [];
  const reports: string[] = [];
  const holds: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let prefix: string;
  let model: string;
  let server: ForgeRuntime;
  const workerRuntimes: ForgeRuntime[] = [];
  const workers: RunWorker[] = [];
  let attacker: Queue;
  let annId: string;
  let benId: string;

  beforeAll(async () => {
    await mock.start();
    model = `openai-compatible:gpt-4.1-mini@${mock.url}/v1`;
    for (const marker of ['ledger-question', 'forged-exfiltrate', 'replayed-question']) mock.on({ userMessage: marker }, { content: `answered ${marker}` });
    mock.on({ userMessage: 'hold-the-ledger', hasToolResult: false }, { toolCalls: [{ id: 'hold_1', name: 'hold', arguments: {} }] });
    mock.on({ toolCallId: 'hold_1' }, { content: 'held and done' });
    await createSchema(schema);
    prefix = keys.prefix();
    const env = { FORGE_DATABASE_URL: postgresTestUrl(schema), FORGE_REDIS_URL: TEST_REDIS_URL, FORGE_REDIS_PREFIX: prefix, FORGE_SECRET_KEY: 'c'.repeat(64) };
    const open = async (name: string) => {
      const home = await mkdtemp(path.join(tmpdir(), `forge-forged-jobs-${name}-`));
      homes.push(home);
      const runtime = await openRuntime({ ...env, FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
      runtime.registry.register(defineTool({ name: 'hold', description: 'Waits.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => (holds.push(name), await held, 'held') }));
      return runtime;
    };
    server = await open('server');
    annId = (await server.accounts.addUser({ email: 'ann@example.com', password: PASSWORD })).id;
    benId = (await server.accounts.addUser({ email: 'ben@example.com', password: PASSWORD })).id;
    // Each worker runs one job at a time: while one holds a run, a second job goes to the other.
    for (const name of ['worker-1', 'worker-2']) {
      const runtime = await open(name);
      workerRuntimes.push(runtime);
      workers.push(startWorker(runtime, { concurrency: 1, report: (line) => reports.push(line) }));
    }
    attacker = new Queue('forge-jobs', { connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }), prefix });
  }, 60_000);

  afterAll(async () => {
    release();
    await attacker?.close();
    for (const worker of workers) await worker.jobs.close();
    for (const runtime of workerRuntimes) await runtime.close();
    await server?.close();
    await mock.stop();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }, 60_000);

  const modelCallsAbout = (marker: string) => mock.getRequests().filter((request) => JSON.stringify(request.body).includes(marker)).length;

  /** Adds a job as anyone who can write to the queue can: BullMQ's own `add`, any payload. */
  async function forge(payload: unknown): Promise<void> {
    const id = `forged-${randomUUID()}`;
    await attacker.add('run', { id, token: randomUUID(), payload }, { jobId: id });
  }

  /** A run of ann's, recorded queued as a server records it, with no job yet. */
  async function queuedRunOfAnn(task: string): Promise<RunRecord> {
    const conversation = await server.store.conversations.create({ title: task, userId: annId });
    return server.runs.enqueue({ kind: 'agent', task, model, conversationId: conversation.id, userId: annId, apiKeyId: null });
  }

  async function reportAbout(runId: string): Promise<string> {
    await expect.poll(() => reports.some((line) => line.startsWith(`run ${runId}: `)), { timeout: 20_000, interval: 25 }).toBe(true);
    return reports.find((line) => line.startsWith(`run ${runId}: `))!;
  }

  it("refuses a job claiming another account for a queued run: nothing runs, the run is unchanged, and its real job still runs it as its owner's", async () => {
    const run = await queuedRunOfAnn('ledger-question');
    const request = { kind: 'agent_task', task: 'ledger-question', model, conversation_id: run.conversationId };

    await forge({ run_id: run.id, request, user_id: benId });

    expect(await reportAbout(run.id)).toBe(`run ${run.id}: rejected: A job for run ${run.id} was refused: it claims account ${benId}, the run is ${annId}. Nothing of it ran, and the stored run is unchanged.`);
    expect(modelCallsAbout('ledger-question')).toBe(0);
    expect(await server.store.runs.get(run.id)).toEqual(run);

    // The job a server queues for it (the same payload, ann's account) runs it.
    await server.queue.enqueue('run', { run_id: run.id, request, user_id: annId }, { id: run.id });
    await expect.poll(async () => (await server.store.runs.get(run.id))?.status, { timeout: 20_000, interval: 50 }).toBe('completed');
    expect(await server.store.runs.get(run.id)).toMatchObject({ userId: annId, answer: 'answered ledger-question', llmCalls: 1 });
    expect(modelCallsAbout('ledger-question')).toBe(1);
  }, 60_000);

  it("refuses a job of the run's own account whose task is not the stored run's", async () => {
    const run = await queuedRunOfAnn('replayed-question');

    await forge({ run_id: run.id, request: { kind: 'agent_task', task: 'forged-exfiltrate', model, conversation_id: run.conversationId }, user_id: annId });

    expect(await reportAbout(run.id)).toBe(`run ${run.id}: rejected: A job for run ${run.id} was refused: its task is not the stored run's. Nothing of it ran, and the stored run is unchanged.`);
    expect(modelCallsAbout('forged-exfiltrate')).toBe(0);
    expect(await server.store.runs.get(run.id)).toEqual(run);
  }, 60_000);

  it('refuses a job for a run that does not exist, and records nothing', async () => {
    const before = await server.store.runs.list();
    const runId = randomUUID();

    await forge({ run_id: runId, request: { kind: 'agent_task', task: 'forged-exfiltrate', model }, user_id: annId });

    expect(await reportAbout(runId)).toBe(`run ${runId}: rejected: A job for run ${runId} was refused: no run ${runId} is stored. Nothing of it ran, and the stored run is unchanged.`);
    expect(modelCallsAbout('forged-exfiltrate')).toBe(0);
    expect(await server.store.runs.list()).toEqual(before);
  }, 60_000);

  it("does nothing with a second copy of a finished run's job", async () => {
    const submitted = await server.runs.submit({ kind: 'agent_task', task: 'replayed-question once', model }, { userId: annId });
    await expect.poll(async () => (await server.store.runs.get(submitted.runId))?.status, { timeout: 20_000, interval: 50 }).toBe('completed');
    const finished = (await server.store.runs.get(submitted.runId))!;
    const calls = modelCallsAbout('replayed-question once');
    expect(calls).toBe(1);
    reports.length = 0;

    await forge({ run_id: finished.id, request: { kind: 'agent_task', task: 'replayed-question once', model, conversation_id: finished.conversationId }, user_id: annId });

    expect(await reportAbout(finished.id)).toBe(`run ${finished.id}: nothing to do, it is completed`);
    expect(modelCallsAbout('replayed-question once')).toBe(calls);
    expect(await server.store.runs.get(finished.id)).toEqual(finished);
  }, 60_000);

  it('does nothing with a copy of the job of a run another worker is running: the run goes on there, its tool called once', async () => {
    reports.length = 0;
    const submitted = await server.runs.submit({ kind: 'agent_task', task: 'hold-the-ledger', model, tools: ['hold'] }, { userId: annId });
    await expect.poll(() => holds.length, { timeout: 20_000, interval: 25 }).toBe(1);
    const running = (await server.store.runs.get(submitted.runId))!;
    expect(running.status).toBe('running');

    // The worker holding the run has no slot free: the copy goes to the other worker.
    await forge({ run_id: running.id, request: { kind: 'agent_task', task: 'hold-the-ledger', model, tools: ['hold'], conversation_id: running.conversationId }, user_id: annId });
    // Before the fix the other worker ended the live run `interrupted` and ran it again from its checkpoint (the tool a second time).
    const touched = async () => reports.some((line) => line.startsWith(`run ${running.id}: `)) || holds.length > 1 || (await server.store.runs.get(running.id))?.status !== 'running';
    await expect.poll(touched, { timeout: 20_000, interval: 25 }).toBe(true);

    expect(reports).toEqual([`run ${running.id}: nothing to do, it is running`]);
    expect(holds).toHaveLength(1);
    expect(await server.store.runs.get(running.id)).toMatchObject({ status: 'running', owner: running.owner });
    release();
    await expect.poll(async () => (await server.store.runs.get(running.id))?.status, { timeout: 20_000, interval: 50 }).toBe('completed');
    expect(await server.store.runs.get(running.id)).toMatchObject({ answer: 'held and done', llmCalls: 2 });
    expect(holds).toHaveLength(1);
  }, 60_000);
});
