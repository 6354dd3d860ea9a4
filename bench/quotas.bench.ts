/**
 * Quotas keep one account from starving another (issue 26). On the real runtime with the embedded
 * store (a libSQL file) and aimock as the model: account B starts RUNS runs one after another with
 * nothing else running (idle), then again while account A keeps FLOOD concurrent starts going against
 * its quota of QUOTA concurrent runs (each of A's runs holds a tool for HOLD_MS; each refused start is
 * tried again after the Retry-After it names, or at once with RETRY=ignore). Prints, idle and under the
 * flood side by side with their ratio, measured in one run:
 *
 * - B's start latency: from `runs.submit` to its run admitted and recorded. Each of B's starts is
 *   called in a turn of the event loop of its own, as the API and MCP entrances call it (in a
 *   request's handler), not in the turn that ended its previous run.
 * - the event loop's delay (p50, p99): how long anything that arrives from outside (a request to the
 *   API) waits before its handler runs at all. It grows with the work of the runs A's quota admits,
 *   which share the process; a start's admission cannot shorten it.
 *
 * The model runs in a process of its own (MODEL_PEER=process, the default), as a provider does; with
 * MODEL_PEER=inline it shares Forge's process and event loop.
 *
 *   npm run bench:quotas            (FLOOD=500 QUOTA=50 RUNS=30 HOLD_MS=200 RETRY=obey MODEL_PEER=process by default)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { LLMock } from '@copilotkit/aimock';
import { z } from 'zod';
import { QuotaExceededError } from '../src/accounts/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';

const FLOOD = Number(process.env['FLOOD'] ?? 500);
const QUOTA = Number(process.env['QUOTA'] ?? 50);
const RUNS = Number(process.env['RUNS'] ?? 30);
const HOLD_MS = Number(process.env['HOLD_MS'] ?? 200);
/**
 * How A's starters take a refusal: `obey` waits the Retry-After it names (the 429 contract; over HTTP a
 * client that does not is held by the per-caller rate limit as well), `ignore` tries again at once (an
 * in-process adversary with no rate limit: the worst case).
 */
const RETRY = process.env['RETRY'] === 'ignore' ? 'ignore' : 'obey';
const MODEL_PEER = process.env['MODEL_PEER'] === 'inline' ? 'inline' : 'process';
const MODEL = 'openai:gpt-4.1-mini';

/** The model's answers: A's runs call the `hold` tool once, B's answer at once. */
function answer(mock: LLMock): void {
  mock.on({ userMessage: 'flood the server', hasToolResult: false }, { toolCalls: [{ id: 'hold_1', name: 'hold', arguments: {} }] });
  mock.on({ toolCallId: 'hold_1' }, { content: 'Held.' });
  mock.on({ userMessage: 'a quick question', hasToolResult: false }, { content: 'Quick answer.' });
}

/** The model peer: aimock in a child process (its URL on its first line of output), or in this one. */
async function startModel(): Promise<{ url: string; stop(): Promise<void> }> {
  if (MODEL_PEER === 'inline') {
    const mock = new LLMock({ port: 0, host: '127.0.0.1' });
    await mock.start();
    answer(mock);
    return { url: mock.url, stop: () => mock.stop() };
  }
  const script = `import { LLMock } from '@copilotkit/aimock';
const mock = new LLMock({ port: 0, host: '127.0.0.1' });
await mock.start();
(${answer.toString()})(mock);
console.log(mock.url);`;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { url, stop: async () => void (child.kill(), await once(child, 'exit')) };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** B's runs one after another, each started in a turn of its own: each one's start latency, whether it finished, and the event loop's delay meanwhile. */
async function bRuns(runtime: ForgeRuntime, userId: string): Promise<{ startMs: number[]; completed: number; loopDelayMs: { p50: number; p99: number } }> {
  const startMs: number[] = [];
  let completed = 0;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  for (let index = 0; index < RUNS; index += 1) {
    await nextTurn();
    const before = performance.now();
    const submitted = await runtime.runs.submit({ kind: 'agent_task', task: 'a quick question', model: MODEL }, { userId });
    startMs.push(performance.now() - before);
    const result = await submitted.result();
    if (result.status === 'completed') completed += 1;
  }
  loop.disable();
  return { startMs, completed, loopDelayMs: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6 } };
}

async function main(): Promise<void> {
  const model = await startModel();
  const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-quotas-'));
  const runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${model.url}/v1` }, home, { mcp: { startupWaitMs: 0 } });
  runtime.registry.register(defineTool({ name: 'hold', description: 'Holds a while.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => (await delay(HOLD_MS), 'held') }));
  try {
    const a = await runtime.accounts.addUser({ email: 'a@example.com', password: 'a long enough password' });
    const b = await runtime.accounts.addUser({ email: 'b@example.com', password: 'a long enough password' });
    await runtime.quotas.set(a.id, { concurrent_runs: QUOTA });

    // Warm up (first statements prepared, modules loaded), then the idle case.
    await bRuns(runtime, b.id);
    const idle = await bRuns(runtime, b.id);

    let stop = false;
    let admitted = 0;
    let refused = 0;
    let failedA = 0;
    const flooders = Array.from({ length: FLOOD }, async () => {
      while (!stop) {
        try {
          const submitted = await runtime.runs.submit({ kind: 'agent_task', task: 'flood the server', model: MODEL }, { userId: a.id });
          admitted += 1;
          if ((await submitted.result()).status !== 'completed') failedA += 1;
        } catch (error) {
          if (!(error instanceof QuotaExceededError)) throw error;
          refused += 1;
          await delay(RETRY === 'obey' ? error.refusal.retryAfterSeconds * 1000 : 0);
        }
      }
    });
    // Until A holds its whole quota.
    while ((await runtime.quotas.show(a.id)).quota.usage.active_runs < QUOTA) await delay(10);
    const floodStart = performance.now();
    const [admittedBefore, refusedBefore] = [admitted, refused];
    const flooded = await bRuns(runtime, b.id);
    const floodSeconds = (performance.now() - floodStart) / 1000;
    const peakActive = (await runtime.quotas.show(a.id)).quota.usage.active_runs;
    const [admittedDuring, refusedDuring] = [admitted - admittedBefore, refused - refusedBefore];
    stop = true;
    await Promise.all(flooders);
    const conversationsOfA = (await runtime.store.conversations.list({ ownedBy: { userId: a.id, includeUnowned: false }, limit: 1_000_000 })).length;

    const row = (name: string, idleValue: number, floodValue: number) => `| ${name} | ${idleValue.toFixed(1)} ms | ${floodValue.toFixed(1)} ms | ${(floodValue / idleValue).toFixed(2)}× |`;
    console.log(`A: ${FLOOD} concurrent starters against a quota of ${QUOTA} concurrent runs (each run holds ${HOLD_MS} ms; refusals: ${RETRY} Retry-After); B: ${RUNS} runs one after another; the model in ${MODEL_PEER === 'process' ? 'a process of its own' : "Forge's process"}.`);
    console.log(`During B's ${RUNS} flooded runs (${floodSeconds.toFixed(1)} s): A's runs admitted ${admittedDuring}, starts refused ${refusedDuring} (QuotaExceededError); A's runs queued or running at the end ${peakActive} (quota ${QUOTA}).`);
    console.log(`In all: A's runs admitted ${admitted}, not completed ${failedA}; A's conversations ${conversationsOfA} (one per admitted run: a refused start leaves none).`);
    console.log(`B completed: idle ${idle.completed}/${RUNS}, flooded ${flooded.completed}/${RUNS}.\n`);
    console.log('| B | idle | A flooding | ratio |');
    console.log('|---|---|---|---|');
    console.log(row('start latency p50', percentile(idle.startMs, 0.5), percentile(flooded.startMs, 0.5)));
    console.log(row('start latency p95', percentile(idle.startMs, 0.95), percentile(flooded.startMs, 0.95)));
    console.log(row('start latency max', Math.max(...idle.startMs), Math.max(...flooded.startMs)));
    console.log(row('event-loop delay p50', idle.loopDelayMs.p50, flooded.loopDelayMs.p50));
    console.log(row('event-loop delay p99', idle.loopDelayMs.p99, flooded.loopDelayMs.p99));
  } finally {
    await runtime.close();
    await model.stop();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
