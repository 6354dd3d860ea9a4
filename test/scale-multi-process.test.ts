import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgeEvent, RunRecord } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from './support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from './support/redis-test-keys.js';
import { effectTool } from './support/scale-effect-tool.js';
import { startCountingServer, type CountingServer } from './support/side-effect-counter.js';
import { scratchUserHome } from './support/built-cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const workerScript = path.join(root, 'test', 'support', 'scale-worker.ts');
const RUNS = 100;
/** Worker A is killed once this many runs' side effects have landed: it holds runs in every stage then. */
const KILL_AFTER_EFFECTS = 30;
/** The model answers each call after this long (aimock's fixture latency): a fixed-latency model. */
const MODEL_LATENCY_MS = 150;
/** The slow runs' latency per streamed chunk: a model call of a few seconds. */
const SLOW_LATENCY_MS = 700;
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'refused']);

interface Worker {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a worker process (the `forge worker` service with the side-effect tool) and resolves once it takes jobs. */
async function startWorkerProcess(env: Record<string, string>, concurrency: number): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript, String(concurrency)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start within 30 s: ${stderr}`)), 30_000);
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (line.startsWith('ready ')) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (process.env['SCALE_DEBUG'] === '1') process.stderr.write(chunk);
    });
    void exited.then(({ code, signal }) => reject(new Error(`the worker exited (${code ?? signal}) before it was ready: ${stderr}`)));
  });
  return { child, lines, exited };
}

/** Every event of a run through the server's stream, reconnecting with Last-Event-ID after each end, until the run's last event. */
async function streamedEvents(origin: string, runId: string, lastEvent: (events: readonly ForgeEvent[]) => boolean): Promise<ForgeEvent[]> {
  const events: ForgeEvent[] = [];
  for (let connection = 0; connection < 10 && !lastEvent(events); connection += 1) {
    const headers: Record<string, string> = events.length === 0 ? {} : { 'last-event-id': String(events.at(-1)!.seq) };
    const response = await fetch(`${origin}/api/v1/runs/${runId}/events`, { headers, signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    for (const frame of text.split('\n\n')) {
      const data = frame.split('\n').find((line) => line.startsWith('data: '));
      const type = frame.split('\n').find((line) => line.startsWith('event: '))?.slice(7);
      if (data !== undefined && type !== 'server-shutdown') events.push(JSON.parse(data.slice(6)) as ForgeEvent);
    }
  }
  return events;
}

describe('the scaled mode: one server, two workers on PostgreSQL and Redis, one killed with SIGKILL mid-way', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  const keys = redisTestKeys('multi-process');
  const schema = freshSchemaName();
  const homes: string[] = [];
  let counting: CountingServer;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let env: Record<string, string>;
  const workers: Worker[] = [];

  beforeAll(async () => {
    counting = await startCountingServer();
    await mock.start();
    mock.on({ userMessage: /^scale task \d+$/, hasToolResult: false }, { toolCalls: [{ name: 'record_effect', arguments: { note: 'once' } }] }, { latency: MODEL_LATENCY_MS });
    mock.on({ userMessage: /^scale task \d+$/, hasToolResult: true }, { content: 'Recorded once.' }, { latency: MODEL_LATENCY_MS });
    // Slow runs, for cancelling one on its worker and for draining a worker that runs one.
    mock.on({ userMessage: /^slow task \d+$/, hasToolResult: false }, { toolCalls: [{ name: 'record_effect', arguments: { note: 'once' } }] }, { latency: SLOW_LATENCY_MS });
    mock.on({ userMessage: /^slow task \d+$/, hasToolResult: true }, { content: 'Recorded slowly.' }, { latency: SLOW_LATENCY_MS });
    await createSchema(schema);
    env = {
      PATH: process.env['PATH'] ?? '',
      HOME: scratchUserHome(),
      FORGE_DATABASE_URL: postgresTestUrl(schema),
      FORGE_REDIS_URL: TEST_REDIS_URL,
      FORGE_REDIS_PREFIX: keys.prefix(),
      // A dead worker's runs go to the other within about 8 s (a lock shorter than a busy machine's pauses would hand live runs over).
      FORGE_QUEUE_LOCK_MS: '4000',
      FORGE_SECRET_KEY: 'a'.repeat(64),
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${mock.url}/v1`,
      FORGE_MODEL: 'openai:gpt-4.1-mini',
      FORGE_ALLOW_HOSTS: counting.allowHost,
      EFFECT_URL: counting.url('').replace(/\/$/, ''),
      FORGE_API_RATE_LIMIT: '0',
    };
    const home = await mkdtemp(path.join(tmpdir(), 'forge-scale-server-'));
    homes.push(home);
    runtime = await openRuntime({ ...env, FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    // The server checks the tool names a run asks for; only the workers ever run the tool.
    runtime.registry.register(effectTool('http://never.invalid'));
    server = await serveApi(runtime, { port: 0, auth: 'none' });
    for (const name of ['a', 'b']) {
      const workerHome = await mkdtemp(path.join(tmpdir(), `forge-scale-worker-${name}-`));
      homes.push(workerHome);
      workers.push(await startWorkerProcess({ ...env, FORGE_HOME: workerHome }, 20));
    }
  }, 90_000);

  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await counting?.close();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }, 60_000);

  it('ends every run completed or failed with a reason, never runs a side effect twice, and has every event exactly once', async () => {
    const origin = server.listener.origin;
    const started: string[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      const response = await fetch(`${origin}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: `scale task ${index}`, tools: ['record_effect'] }) });
      expect(response.status).toBe(202);
      started.push(((await response.json()) as { run_id: string }).run_id);
    }
    // Followed live through the server while workers run them: the events cross processes through Redis.
    const followed = started.slice(0, 10).map((runId) => streamedEvents(origin, runId, (events) => events.at(-1)?.type === 'run-end' && (events.at(-1) as { halt_reason?: string }).halt_reason !== 'interrupted'));

    const effects = () => started.reduce((sum, runId) => sum + counting.counter.hits(runId), 0);
    await expect.poll(effects, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(KILL_AFTER_EFFECTS);
    const victim = workers[0]!;
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    const settled = async () => (await Promise.all(started.map((runId) => runtime.store.runs.get(runId)))).filter((run): run is RunRecord => run !== undefined && TERMINAL.has(run.status)).length;
    await expect.poll(settled, { timeout: 90_000, interval: 200 }).toBe(RUNS);
    const runs = (await Promise.all(started.map((runId) => runtime.store.runs.get(runId)))) as RunRecord[];

    // Every run ended completed, or failed with its reason; none was lost.
    const statuses = runs.map((run) => run.status);
    expect(statuses.filter((status) => status !== 'completed' && status !== 'failed')).toEqual([]);
    for (const run of runs.filter((candidate) => candidate.status === 'failed')) {
      expect(run.haltReason, `run ${run.id}`).not.toBeNull();
      expect(run.error, `run ${run.id}`).toMatch(/\S/);
    }
    // No side effect happened twice; a completed run's happened exactly once.
    for (const run of runs) {
      expect(counting.counter.hits(run.id), `effects of run ${run.id} (${run.status})`).toBeLessThanOrEqual(1);
      if (run.status === 'completed') expect(counting.counter.hits(run.id), `effects of completed run ${run.id}`).toBe(1);
    }
    // Worker A's runs went on at B from their checkpoints.
    const eventsByRun = new Map<string, ForgeEvent[]>();
    for (const run of runs) eventsByRun.set(run.id, await runtime.store.events.list(run.id));
    const resumed = runs.filter((run) => eventsByRun.get(run.id)!.some((event) => event.type === 'run-resume'));
    expect(resumed.length, 'runs resumed on the surviving worker').toBeGreaterThan(0);
    expect(resumed.filter((run) => run.status === 'completed').length, 'resumed runs that completed').toBeGreaterThan(0);
    // Every event exactly once: seqs 0..n, one run-start, the last event the run's end.
    for (const run of runs) {
      const events = eventsByRun.get(run.id)!;
      expect(events.map((event) => event.seq), `seqs of run ${run.id}`).toEqual(events.map((_, index) => index));
      const starts = events.filter((event) => event.type === 'run-start').length;
      // A run whose worker died before its first events were stored has nothing to go on from: it failed, saying why.
      if (starts === 0) expect([run.status, run.haltReason, events.map((event) => event.type)], `run ${run.id}, killed before it stored anything`).toEqual(['failed', 'interrupted', ['run-end']]);
      else expect(starts, `run-start of run ${run.id}`).toBe(1);
      expect(events.at(-1)?.type, `last event of run ${run.id}`).toBe('run-end');
      expect(new Set(events.filter((event) => event.type === 'tool-call-start').map((event) => (event as { call_id: string }).call_id)).size, `tool calls of run ${run.id}`).toBe(events.filter((event) => event.type === 'tool-call-start').length);
    }
    // What the server streamed live, from runs on the workers, is the store's record, each event once.
    for (const [index, pending] of followed.entries()) {
      const streamed = await pending;
      const stored = eventsByRun.get(started[index]!)!;
      expect(streamed.map((event) => [event.seq, event.type]), `streamed events of run ${started[index]}`).toEqual(stored.map((event) => [event.seq, event.type]));
    }
    if (process.env['SCALE_DEBUG'] === '1') {
      const failed = runs.filter((run) => run.status === 'failed');
      process.stderr.write(`${RUNS} runs: ${runs.length - failed.length} completed, ${failed.length} failed (${[...new Set(failed.map((run) => run.error))].join(' | ')}), ${resumed.length} resumed on the survivor, ${started.reduce((sum, runId) => sum + counting.counter.hits(runId), 0)} effects\n`);
    }
    // The survivor took over: it reported resuming runs.
    expect(workers[1]!.lines.some((line) => line.includes(': resumed, now'))).toBe(true);
  }, 180_000);

  /** Starts a slow run through the server and resolves once a worker runs it (its first model call started). */
  async function slowRunUnderway(task: string): Promise<string> {
    const response = await fetch(`${server.listener.origin}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task, tools: ['record_effect'] }) });
    const { run_id: runId } = (await response.json()) as { run_id: string };
    await expect.poll(async () => (await runtime.store.events.list(runId)).some((event) => event.type === 'model-call-start'), { timeout: 30_000, interval: 50 }).toBe(true);
    return runId;
  }

  it('cancels a run from the API on the worker that runs it: it ends cancelled and its side effect never happens', async () => {
    const runId = await slowRunUnderway('slow task 1');

    const response = await fetch(`${server.listener.origin}/api/v1/runs/${runId}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'changed my mind' }) });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ run_id: runId, status: 'cancelled', halt_reason: 'cancelled' });
    const events = await runtime.store.events.list(runId);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'cancelled' });
    expect(events.some((event) => event.type === 'tool-call-start')).toBe(false);
    expect(counting.counter.hits(runId)).toBe(0);
  }, 60_000);

  it('drains a worker on SIGTERM: the run in progress finishes, then the worker exits 0', async () => {
    const survivor = workers[1]!;
    const runId = await slowRunUnderway('slow task 2');

    survivor.child.kill('SIGTERM');

    expect(await survivor.exited).toEqual({ code: 0, signal: null });
    expect(await runtime.store.runs.get(runId)).toMatchObject({ status: 'completed', answer: 'Recorded slowly.' });
    expect(counting.counter.hits(runId)).toBe(1);
  }, 60_000);
});
