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
import { openRuntime, runTask, type ForgeRuntime } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { TIMER_MODEL_CALLS as MODEL_CALLS, noopTools, timerModel } from '../test/support/timer-model.js';

const COUNTS = (process.env['COUNTS'] ?? '10,100,1000,2000').split(',').map(Number);
const DELAY_MS = Number(process.env['DELAY_MS'] ?? 1000);
/** AUDIT=0 skips the persistence audit (for profiling the runs alone). */
const AUDIT = process.env['AUDIT'] !== '0';
/** STORE_THREAD=worker runs the file store's SQL on its own worker thread instead of the main thread (for comparison). */
const STORE_THREAD = process.env['STORE_THREAD'] === 'worker' ? 'worker' : 'main';

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
  const store = await openStore({ url: path.join(home, 'forge.db'), thread: STORE_THREAD });
  const runtime = await openRuntime({ FORGE_HOME: home }, home, { store, mcp: { startupWaitMs: 0 } });
  try {
    for (const tool of noopTools()) runtime.registry.register(tool);
    const model = { slug: 'bench:timer', provider: 'bench', model: timerModel(() => DELAY_MS) };
    // One run first, so modules loaded on first use are loaded: the figures are a warm process's.
    await runTask(runtime, { task: 'warm-up', model, maxIterations: MODEL_CALLS + 1 });
    let peakMemory = 0;
    const baseline = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakMemory = Math.max(peakMemory, process.memoryUsage().rss - baseline)), 50);
    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const settled = await Promise.allSettled(Array.from({ length: count }, (_, index) => runTask(runtime, { task: `bench task ${index}`, model, maxIterations: MODEL_CALLS + 1 })));
    const wallMs = performance.now() - started;
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
process.stdout.write(`concurrent runs in one process — real runtime (libSQL file store with its SQL on the ${STORE_THREAD === 'main' ? 'main thread' : 'worker thread'}, run logs), ${MODEL_CALLS} model calls answered after ${DELAY_MS} ms and ${MODEL_CALLS - 1} no-op tools per run; ideal ${(ideal / 1000).toFixed(1)} s\n\n`);
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
