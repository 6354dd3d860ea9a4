/**
 * Dispatch overhead per call: the dispatch choke point with everything around the execution off (an
 * allow-all policy, no call guards, nothing recorded) against the policy the runtime builds
 * (`runtime.policy`), the run's call guards with the runtime's settings (result cache, failure
 * blocking, rate limits, timeouts) and the run recorder (run log, events, steps and the tool-call
 * analytics rows in the store), each alone and all together, on a trivial read-only tool.
 *
 * Calls go in runs of CALLS_PER_RUN (below the default 60-a-minute rate limit of one tool, as in a real
 * run; every run gets fresh guards), each call with a new input, so the cache is looked up and filled
 * every time and never answers (a hit would skip the tool and flatter the guarded side). A recorded
 * run's time includes closing its recorder: the store commit its calls caused is part of their cost.
 *
 *   npm run bench:dispatch        (RUNS=40 CALLS_PER_RUN=50 ROUNDS=5 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { refuseApprovals } from '../src/engine/index.js';
import { defineTool, type GuardedFetch, type Policy } from '../src/core/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { RunRecorder } from '../src/runs/run-log/index.js';
import { openRuntime } from '../src/compose/index.js';
import { CallGuards, ToolRegistry, dispatchToolCall } from '../src/tools/index.js';

const RUNS = Number(process.env['RUNS'] ?? 40);
const CALLS_PER_RUN = Number(process.env['CALLS_PER_RUN'] ?? 50);
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const WARMUP_RUNS = 5;

interface Contender {
  readonly name: string;
  readonly policy: boolean;
  readonly guards: boolean;
  readonly analytics: boolean;
}

const contenders: readonly Contender[] = [
  { name: 'off: allow-all policy, no guards, nothing recorded', policy: false, guards: false, analytics: false },
  { name: 'runtime.policy only', policy: true, guards: false, analytics: false },
  { name: 'call guards only (cache, failures, rate limits, timeout)', policy: false, guards: true, analytics: false },
  { name: 'recorder only (run log, events, steps, tool_calls rows)', policy: false, guards: false, analytics: true },
  { name: 'on: runtime.policy + call guards + recorder', policy: true, guards: true, analytics: true },
];

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'forge-dispatch-bench-'));
  const runtime = await openRuntime({ FORGE_HOME: folder }, folder, { mcp: { startupWaitMs: 0 } });
  const registry = new ToolRegistry();
  registry.register(defineTool({ name: 'echo', description: 'returns its input', inputSchema: z.object({ value: z.number() }), risk: 'low', sideEffect: 'read', execute: async ({ value }) => ({ value }) }));
  const tools = registry.snapshot();
  const allowAll: Policy = { decide: async () => ({ decision: 'allow', reason: 'bench' }) };
  const signal = new AbortController().signal;
  const noNetwork: GuardedFetch = async () => {
    throw new Error('no network');
  };
  let runNumber = 0;

  /** One run of CALLS_PER_RUN dispatches; resolves with the milliseconds they took (recorder close included). */
  async function oneRun(contender: Contender): Promise<number> {
    const runId = `bench-${runNumber++}`;
    const bus = new InProcessEventBus();
    if (contender.analytics) await runtime.store.runs.create({ id: runId, task: 'bench', model: 'none', conversationId: null });
    const recorder = contender.analytics ? await RunRecorder.open(bus, runId, path.join(folder, 'runs', `${runId}.jsonl`), runtime.store) : undefined;
    const environment = {
      tools,
      policy: contender.policy ? runtime.policy : allowAll,
      approvals: refuseApprovals,
      emitter: createRunEmitter(bus, runId),
      context: { runId, signal, fetch: noNetwork, utilityModel: undefined },
      ...(contender.guards ? { guards: new CallGuards(runtime.config.callGuards) } : {}),
    };
    const started = performance.now();
    for (let index = 0; index < CALLS_PER_RUN; index += 1) {
      const outcome = await dispatchToolCall({ name: 'echo', input: { value: index }, callId: `c${index}`, iteration: 1 }, environment);
      if (!outcome.ok || outcome.cached === true) throw new Error(`call ${index} of ${contender.name}: ${outcome.output}`);
    }
    await recorder?.close();
    return performance.now() - started;
  }

  async function measure(contender: Contender): Promise<number> {
    for (let index = 0; index < WARMUP_RUNS; index += 1) await oneRun(contender);
    let total = 0;
    for (let index = 0; index < RUNS; index += 1) total += await oneRun(contender);
    return (total * 1000) / (RUNS * CALLS_PER_RUN);
  }

  // Interleaved rounds, so machine noise hits every contender alike; each keeps its best round.
  const best = contenders.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, contender] of contenders.entries()) best[index] = Math.min(best[index]!, await measure(contender));
  }
  await runtime.close();
  rmSync(folder, { recursive: true, force: true });

  const off = best[0]!;
  process.stdout.write(`dispatch overhead per call — ${CALLS_PER_RUN} calls × ${RUNS} runs, best of ${ROUNDS} interleaved rounds, trivial read-only tool, a new input every call (no cache hit)\n\n`);
  process.stdout.write(`${'contender'.padEnd(62)}${'µs/call'.padStart(10)}${'ratio'.padStart(9)}\n`);
  for (const [index, contender] of contenders.entries()) process.stdout.write(`${contender.name.padEnd(62)}${best[index]!.toFixed(1).padStart(10)}${`${(best[index]! / off).toFixed(2)}×`.padStart(9)}\n`);
  process.stdout.write(`\non / off: ${(best.at(-1)! / off).toFixed(2)}× (${off.toFixed(1)} µs → ${best.at(-1)!.toFixed(1)} µs a call)\n`);
}

await main();
