/**
 * Many concurrent runs in one process, on the real runtime: the libSQL file store, run logs,
 * conversations, the run service. Each run makes 3 model calls, each answered after DELAY_MS by a fake
 * model in this process (a timer, so the process is free meanwhile), and calls 2 no-op tools, so the
 * ideal wall time is 3 × DELAY_MS whatever the number of runs. Prints, per N: wall time over the ideal,
 * event-loop lag p50/p99, CPU seconds, memory per run, and a persistence audit (every event of every run
 * in the store and in its run log, once, in order).
 * Target (concurrency issue): 1,000 runs within 1.5× the ideal with event-loop lag p99 < 100 ms; 2,000
 * runs without errors. Figures before this work (same machine): 25 runs 1.1×, 100 runs 1.3–2.1×, 1,000
 * runs 12.9–17.8× with p99 lag 10–14 s, 2,000 runs 21–27×.
 *
 *   npm run bench:concurrency            (COUNTS=10,100,1000,2000 DELAY_MS=1000 by default)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { z } from 'zod';
import { defineTool } from '../src/core/index.js';
import { openRuntime, runTask, type ForgeRuntime } from '../src/runtime/index.js';

const COUNTS = (process.env['COUNTS'] ?? '10,100,1000,2000').split(',').map(Number);
const DELAY_MS = Number(process.env['DELAY_MS'] ?? 1000);
const MODEL_CALLS = 3;
/** AUDIT=0 skips the persistence audit (for profiling the runs alone). */
const AUDIT = process.env['AUDIT'] !== '0';

const usage = {
  inputTokens: { total: 40, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 8, text: undefined, reasoning: undefined },
};

/** Answers (streaming, as the agent loop asks) after DELAY_MS: a call to `noop_a`, then `noop_b`, then the final answer. */
function timerModel(): LanguageModelV3 {
  let counter = 0;
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'timer',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the agent loop streams');
    },
    async doStream(options: LanguageModelV3CallOptions) {
      const r = options.prompt.filter((message) => message.role === 'tool').length; (globalThis as any).__calls ??= [[],[],[]]; (globalThis as any).__calls[r].push(performance.now()); if (process.env['EXIT_AT'] && (globalThis as any).__calls[0].length === Number(process.env['EXIT_AT'])) { console.log('start phase ms', performance.now() - (globalThis as any).__started); process.exit(0); }
      await delay((globalThis as any).__warm ? 0 : DELAY_MS, undefined, { signal: options.abortSignal });
      const results = options.prompt.filter((message) => message.role === 'tool').length;
      counter += 1;
      const parts: LanguageModelV3StreamPart[] =
        results >= MODEL_CALLS - 1
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }]
          : [{ type: 'tool-call', toolCallId: `c${counter}`, toolName: results === 0 ? 'noop_a' : 'noop_b', input: '{"value":1}' }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage }];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

interface Figures {
  readonly count: number;
  readonly wallMs: number;
  readonly lagP50Ms: number;
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
  readonly cpuSeconds: number;
  readonly memoryPerRunKb: number;
  readonly failed: number;
  readonly audit: string;
}

/** Every run completed with its 2 steps; its events are in the store and in its log, the same, seq 0..n. */
async function audit(runtime: ForgeRuntime, results: ReadonlyArray<{ run_id: string; log_file: string; status: string }>): Promise<string> {
  const problems: string[] = [];
  for (const result of results) {
    const stored = await runtime.store.events.list(result.run_id);
    const logged = (await readFile(result.log_file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { seq: number; type: string });
    const steps = await runtime.store.steps.list(result.run_id);
    const dense = stored.every((event, index) => event.seq === index);
    const same = stored.length === logged.length && stored.every((event, index) => event.seq === logged[index]!.seq && event.type === logged[index]!.type);
    if (result.status !== 'completed' || !dense || !same || stored.at(-1)?.type !== 'run-end' || steps.length !== MODEL_CALLS - 1) {
      problems.push(`${result.run_id}: status ${result.status}, ${stored.length} stored / ${logged.length} logged events, ${steps.length} steps`);
    }
  }
  return problems.length === 0 ? `all ${results.length} complete` : `${problems.length} incomplete (${problems.slice(0, 2).join('; ')})`;
}

async function measure(count: number): Promise<Figures> {
  const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-concurrency-'));
  const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
  try {
    for (const name of ['noop_a', 'noop_b']) {
      runtime.registry.register(defineTool({ name, description: 'does nothing', inputSchema: z.object({ value: z.number() }), risk: 'low', sideEffect: 'read', execute: async ({ value }) => ({ value }) }));
    }
    const model = { slug: 'bench:timer', provider: 'bench', model: timerModel() };
    // One run first, so modules loaded on first use are loaded: the figures are a warm process's.
    (globalThis as any).__warm = true;
    await runTask(runtime, { task: 'warm-up', model, maxIterations: MODEL_CALLS + 1 });
    (globalThis as any).__warm = false;
    let peakMemory = 0;
    const baseline = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakMemory = Math.max(peakMemory, process.memoryUsage().rss - baseline)), 50);
    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const cpuBefore = process.cpuUsage();
    (function __MEASURE_START__() { const until = performance.now() + 30; while (performance.now() < until); })();
    const started = performance.now();
    (globalThis as any).__calls = [[], [], []]; (globalThis as any).__started = started;
    const settled = await Promise.allSettled(Array.from({ length: count }, (_, index) => runTask(runtime, { task: `bench task ${index}`, model, maxIterations: MODEL_CALLS + 1 })));
    const wallMs = performance.now() - started;
    (function __MEASURE_END__() { const until = performance.now() + 30; while (performance.now() < until); })();
    const c = (globalThis as any).__calls as number[][]; for (const [i, list] of c.entries()) { list.sort((a, b) => a - b); console.log('call', i, 'first', (list[0]! - started).toFixed(0), 'p50', (list[Math.floor(list.length / 2)]! - started).toFixed(0), 'last', (list.at(-1)! - started).toFixed(0)); } (globalThis as any).__calls = undefined; for (const [k, list] of Object.entries((globalThis as any).__t as Record<string, number[]>)) { const l = list.filter((x) => x >= started).sort((a, b) => a - b); console.log(k, 'first', (l[0]! - started).toFixed(0), 'p50', (l[Math.floor(l.length / 2)]! - started).toFixed(0), 'last', (l.at(-1)! - started).toFixed(0)); }
    const cpu = process.cpuUsage(cpuBefore);
    lag.disable();
    clearInterval(sampler);
    const results = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const failures = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)] : []));
    const audited = AUDIT ? await audit(runtime, results) : 'not audited (AUDIT=0)';
    return {
      count,
      wallMs,
      lagP50Ms: lag.percentile(50) / 1e6,
      lagP99Ms: lag.percentile(99) / 1e6,
      lagMaxMs: lag.max / 1e6,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      memoryPerRunKb: peakMemory / 1024 / count,
      failed: failures.length + results.filter((result) => result.status !== 'completed').length,
      audit: failures.length === 0 ? audited : `${audited}; ${failures.length} threw (${failures[0]})`,
    };
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

const ideal = MODEL_CALLS * DELAY_MS;
process.stdout.write(`concurrent runs in one process — real runtime (libSQL file store, run logs), ${MODEL_CALLS} model calls answered after ${DELAY_MS} ms and ${MODEL_CALLS - 1} no-op tools per run; ideal ${(ideal / 1000).toFixed(1)} s\n\n`);
process.stdout.write(`${'runs'.padStart(6)}${'wall s'.padStart(9)}${'× ideal'.padStart(9)}${'lag p50'.padStart(10)}${'lag p99'.padStart(10)}${'lag max'.padStart(10)}${'CPU s'.padStart(8)}${'KB/run'.padStart(9)}${'failed'.padStart(8)}  persistence audit\n`);
const rows: Figures[] = [];
for (const count of COUNTS) {
  const figures = await measure(count);
  rows.push(figures);
  process.stdout.write(
    `${String(count).padStart(6)}${(figures.wallMs / 1000).toFixed(2).padStart(9)}${`${(figures.wallMs / ideal).toFixed(2)}×`.padStart(9)}` +
      `${`${figures.lagP50Ms.toFixed(0)} ms`.padStart(10)}${`${figures.lagP99Ms.toFixed(0)} ms`.padStart(10)}${`${figures.lagMaxMs.toFixed(0)} ms`.padStart(10)}` +
      `${figures.cpuSeconds.toFixed(2).padStart(8)}${figures.memoryPerRunKb.toFixed(0).padStart(9)}${String(figures.failed).padStart(8)}  ${figures.audit}\n`,
  );
}
const thousand = rows.find((row) => row.count === 1000);
if (thousand !== undefined) {
  const met = thousand.wallMs / ideal <= 1.5 && thousand.lagP99Ms < 100 && thousand.failed === 0;
  process.stdout.write(`\ntarget: 1,000 runs ≤ 1.50× ideal with lag p99 < 100 ms — ${met ? 'met' : 'NOT met'} (${(thousand.wallMs / ideal).toFixed(2)}×, p99 ${thousand.lagP99Ms.toFixed(0)} ms); before: 12.9–17.8×, p99 10–14 s\n`);
}
