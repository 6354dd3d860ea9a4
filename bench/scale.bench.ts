/**
 * The scaled mode against the embedded mode, on the same fixed-latency model (aimock, each streamed
 * chunk of an answer after LATENCY_MS): RUNS agent runs at once, each two model calls and one
 * side-effecting tool call.
 *
 * - embedded: one process runs them all (libSQL file store, in-process queue), as `forge serve` does alone.
 * - scaled, 1, 2 and 4 workers: this process queues the runs (as `forge serve` does in the scaled mode,
 *   through `runs.submit`) on PostgreSQL + Redis, and follows each run's events through the Redis fan-out
 *   until its end; `forge worker` processes (the same service, `test/support/scale-worker.ts`) run them,
 *   WORKER_CONCURRENCY at once each.
 *
 * Prints runs per second and run latency (p50, p99: from asking for the run to seeing its `run-end`), and
 * memory per concurrent run (peak RSS over idle RSS of the processes that run them, over the runs they
 * held at once), each mode side by side with the embedded baseline as a ratio measured in this run.
 *
 *   npm run bench:scale      (RUNS=200 LATENCY_MS=100 WORKER_CONCURRENCY=50 WORKERS=1,2,4; needs the
 *                             PostgreSQL and Redis of .ci/run: FORGE_TEST_POSTGRES_URL, FORGE_TEST_REDIS_URL)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LLMock } from '@copilotkit/aimock';
import { openRuntime, runTask, type ForgeRuntime } from '../src/compose/index.js';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from '../test/support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from '../test/support/redis-test-keys.js';
import { effectTool } from '../test/support/scale-effect-tool.js';
import { startCountingServer } from '../test/support/side-effect-counter.js';

const RUNS = Number(process.env['RUNS'] ?? 200);
const LATENCY_MS = Number(process.env['LATENCY_MS'] ?? 100);
const WORKER_CONCURRENCY = Number(process.env['WORKER_CONCURRENCY'] ?? 50);
const WORKER_COUNTS = (process.env['WORKERS'] ?? '1,2,4').split(',').map(Number);
const root = fileURLToPath(new URL('..', import.meta.url));
const workerScript = path.join(root, 'test', 'support', 'scale-worker.ts');

interface Figures {
  readonly mode: string;
  readonly runsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly memoryPerRunKb: number;
  readonly completed: number;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Samples the summed RSS of `pids` every 50 ms until stopped; resolves with the peak. */
function samplePeak(pids: readonly number[]): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const total = (await Promise.all(pids.map(rssKb))).reduce((sum, value) => sum + value, 0);
      peak = Math.max(peak, total);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return peak;
    },
  };
}

async function withModel<T>(work: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  await mock.start();
  mock.on({ userMessage: /^scale task \d+$/, hasToolResult: false }, { toolCalls: [{ name: 'record_effect', arguments: { note: 'once' } }] }, { latency: LATENCY_MS });
  mock.on({ userMessage: /^scale task \d+$/, hasToolResult: true }, { content: 'Recorded once.' }, { latency: LATENCY_MS });
  const counting = await startCountingServer();
  try {
    return await work({
      PATH: process.env['PATH'] ?? '',
      OPENAI_API_KEY: 'bench-key',
      OPENAI_BASE_URL: `${mock.url}/v1`,
      FORGE_MODEL: 'openai:gpt-4.1-mini',
      FORGE_ALLOW_HOSTS: counting.allowHost,
      EFFECT_URL: counting.url('').replace(/\/$/, ''),
      FORGE_SECRET_KEY: 'b'.repeat(64),
    });
  } finally {
    await counting.close();
    await mock.stop();
  }
}

async function embedded(env: Record<string, string>, runs: number): Promise<Figures> {
  const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-scale-embedded-'));
  const runtime = await openRuntime({ ...env, FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
  runtime.registry.register(effectTool(env['EFFECT_URL']!));
  try {
    const idle = await rssKb(process.pid);
    const peak = samplePeak([process.pid]);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: runs }, async (_, index) => {
        const asked = performance.now();
        const result = await runTask(runtime, { task: `scale task ${index}`, tools: ['record_effect'] });
        return { status: result.status, latency: performance.now() - asked };
      }),
    );
    const wall = performance.now() - started;
    const peakKb = await peak.stop();
    return figures('embedded (1 process)', wall, results, (peakKb - idle) / runs);
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

function figures(mode: string, wallMs: number, results: ReadonlyArray<{ status: string; latency: number }>, memoryPerRunKb: number): Figures {
  const latencies = results.map((result) => result.latency);
  return { mode, runsPerSecond: results.length / (wallMs / 1000), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), memoryPerRunKb, completed: results.filter((result) => result.status === 'completed').length };
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript, String(WORKER_CONCURRENCY)], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      if (/^ready /m.test(pending)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
  // The job lines after `ready` are not needed here; reading them keeps the pipe from filling.
  child.stdout!.resume();
  return child;
}

async function scaled(env: Record<string, string>, workerCount: number): Promise<Figures> {
  const schema = freshSchemaName();
  const keys = redisTestKeys('bench-scale');
  await createSchema(schema);
  const homes: string[] = [];
  const scaledEnv = { ...env, FORGE_DATABASE_URL: postgresTestUrl(schema), FORGE_REDIS_URL: TEST_REDIS_URL, FORGE_REDIS_PREFIX: keys.prefix() };
  const serverHome = await mkdtemp(path.join(tmpdir(), 'forge-bench-scale-server-'));
  homes.push(serverHome);
  let runtime: ForgeRuntime | undefined;
  const workers: ChildProcess[] = [];
  try {
    runtime = await openRuntime({ ...scaledEnv, FORGE_HOME: serverHome }, serverHome, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(effectTool('http://never.invalid'));
    for (let index = 0; index < workerCount; index += 1) {
      const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-scale-worker-'));
      homes.push(home);
      workers.push(await startWorker({ ...scaledEnv, FORGE_HOME: home }));
    }
    const pids = workers.map((worker) => worker.pid!);
    const idle = (await Promise.all(pids.map(rssKb))).reduce((sum, value) => sum + value, 0);
    const peak = samplePeak(pids);
    const server = runtime;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: RUNS }, async (_, index) => {
        const asked = performance.now();
        const { runId } = await server.runs.submit({ kind: 'agent_task', task: `scale task ${index}`, tools: ['record_effect'] }, { userId: null });
        let status = 'unknown';
        for await (const event of server.runs.eventsAfter(runId, -1)) if (event.type === 'run-end') status = event.status;
        return { status, latency: performance.now() - asked };
      }),
    );
    const wall = performance.now() - started;
    const peakKb = await peak.stop();
    return figures(`scaled, ${workerCount} worker${workerCount === 1 ? '' : 's'}`, wall, results, (peakKb - idle) / Math.min(RUNS, workerCount * WORKER_CONCURRENCY));
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(undefined)))));
    await runtime?.close();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

let aloneMs = Number.NaN;
const rows = await withModel(async (env) => {
  // The latency of one run with nothing else going on (after one to warm up): what the model's latency alone costs a run.
  await embedded(env, 1);
  aloneMs = (await embedded(env, 1)).p50Ms;
  const measured: Figures[] = [await embedded(env, RUNS)];
  for (const count of WORKER_COUNTS) measured.push(await scaled(env, count));
  return measured;
});
const baseline = rows[0]!;
process.stdout.write(`\n${RUNS} runs at once, each 2 model calls (aimock, ${LATENCY_MS} ms per streamed chunk) + 1 tool call; workers run ${WORKER_CONCURRENCY} at once; one run alone takes ${aloneMs.toFixed(0)} ms\n\n`);
const header = ['mode', 'runs/s', '× embedded', 'p50 ms', 'p99 ms', 'p99 × embedded', 'KB/concurrent run', 'completed'];
const table = rows.map((row) => [
  row.mode,
  row.runsPerSecond.toFixed(1),
  `${(row.runsPerSecond / baseline.runsPerSecond).toFixed(2)}×`,
  row.p50Ms.toFixed(0),
  row.p99Ms.toFixed(0),
  `${(row.p99Ms / baseline.p99Ms).toFixed(2)}×`,
  row.memoryPerRunKb.toFixed(0),
  `${row.completed}/${RUNS}`,
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => row[column]!.length)));
for (const row of [header, ...table]) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}\n`);
