/**
 * Loop overhead per iteration: Forge's loop (dispatch, events, run log and store recording) against
 * the AI SDK's own generateText tool loop, on the same zero-latency model and the same no-op tool.
 * Target: Forge with persistence ≤ 1.2× the bare AI SDK loop (concurrency issue; 1.5× in the engine-core issue).
 *
 *   npm run bench            (ITERATIONS=20 RUNS=60 ROUNDS=5 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { refuseApprovals, runAgent } from '../src/engine/index.js';
import { builtInPolicy } from '../src/policy/index.js';
import { defineTool, type GuardedFetch } from '../src/core/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { CostMeter } from '../src/llm/index.js';
import { RunRecorder } from '../src/runs/run-log/index.js';
import { RunService } from '../src/runs/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { ToolRegistry } from '../src/tools/index.js';

const ITERATIONS = Number(process.env['ITERATIONS'] ?? 20);
const RUNS = Number(process.env['RUNS'] ?? 60);
const WARMUP = 10;
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);

const usage = {
  inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: undefined, reasoning: undefined },
};

/** Zero latency: calls `noop` until the prompt holds ITERATIONS tool results, then answers. */
function zeroLatencyModel(): LanguageModelV3 {
  let counter = 0;
  const decide = (options: LanguageModelV3CallOptions) => {
    const toolResults = options.prompt.filter((message) => message.role === 'tool').length;
    counter += 1;
    return toolResults < ITERATIONS ? { call: { toolCallId: `c${counter}`, toolName: 'noop', input: '{"value":1}' } } : { text: 'done' };
  };
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'zero-latency',
    supportedUrls: {},
    async doGenerate(options) {
      const decision = decide(options);
      return decision.call === undefined
        ? { content: [{ type: 'text', text: decision.text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'tool-call', ...decision.call }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
    },
    async doStream(options) {
      const decision = decide(options);
      const parts: LanguageModelV3StreamPart[] =
        decision.call === undefined
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: decision.text }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }]
          : [{ type: 'tool-call', ...decision.call }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage }];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  };
}

const inputSchema = z.object({ value: z.number() });

async function bareGenerateText(): Promise<void> {
  const result = await generateText({
    model: zeroLatencyModel(),
    prompt: 'bench',
    tools: { noop: tool({ description: 'does nothing', inputSchema, execute: async ({ value }) => ({ value }) }) },
    stopWhen: stepCountIs(ITERATIONS + 1),
  });
  if (result.steps.length !== ITERATIONS + 1) throw new Error(`generateText ran ${result.steps.length} steps`);
}

async function bareStreamText(): Promise<void> {
  const result = streamText({
    model: zeroLatencyModel(),
    prompt: 'bench',
    tools: { noop: tool({ description: 'does nothing', inputSchema, execute: async ({ value }) => ({ value }) }) },
    stopWhen: stepCountIs(ITERATIONS + 1),
  });
  await result.consumeStream();
  if ((await result.steps).length !== ITERATIONS + 1) throw new Error('streamText ran the wrong number of steps');
}

const noNetwork: GuardedFetch = async () => {
  throw new Error('no network in the benchmark');
};

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'forge-bench-'));
  const store = await openStore({ url: `file:${path.join(folder, 'bench.db')}` });
  const registry = new ToolRegistry();
  registry.register(defineTool({ name: 'noop', description: 'does nothing', inputSchema, risk: 'low', sideEffect: 'read', execute: async ({ value }) => ({ value }) }));
  let runNumber = 0;

  async function forgeLoop(options: { persist: boolean }): Promise<void> {
    const bus = new InProcessEventBus();
    const runId = `bench-${runNumber++}`;
    if (options.persist) await store.runs.create({ id: runId, task: 'bench', model: 'bench:zero-latency', conversationId: null });
    const recorder = options.persist ? await RunRecorder.open(bus, runId, path.join(folder, 'runs', `${runId}.jsonl`), store) : undefined;
    const emitter = createRunEmitter(bus, runId);
    const result = await runAgent({
      task: 'bench',
      model: { slug: 'bench:zero-latency', provider: 'bench', model: zeroLatencyModel() },
      registry,
      emitter,
      meter: new CostMeter(runId),
      policy: builtInPolicy,
      approvals: refuseApprovals,
      toolContext: { fetch: noNetwork, utilityModel: undefined },
      maxIterations: ITERATIONS + 1,
    });
    await recorder?.close();
    if (result.steps.length !== ITERATIONS || result.status !== 'completed') throw new Error(`forge loop ran ${result.steps.length} steps (${result.status})`);
  }

  // The way every real run goes: through the run service, with its RunState checkpointed at every turn boundary.
  const runService = new RunService({ store, bus: new InProcessEventBus(), home: folder, owner: { pid: process.pid, host: hostname() } });
  async function forgeCheckpointed(): Promise<void> {
    const handle = runService.start({
      kind: 'agent',
      task: 'bench',
      model: 'bench:zero-latency',
      execute: (run) =>
        runAgent({
          task: 'bench',
          model: { slug: 'bench:zero-latency', provider: 'bench', model: zeroLatencyModel() },
          registry,
          emitter: run.emitter,
          meter: run.meter,
          policy: builtInPolicy,
          approvals: refuseApprovals,
          toolContext: { fetch: noNetwork, utilityModel: undefined },
          maxIterations: ITERATIONS + 1,
          persistence: run.persistence,
        }),
    });
    const result = await handle.result;
    if (result.steps.length !== ITERATIONS || result.status !== 'completed') throw new Error(`checkpointed loop ran ${result.steps.length} steps (${result.status})`);
  }

  async function measure(body: () => Promise<void>): Promise<number> {
    for (let index = 0; index < WARMUP; index += 1) await body();
    const started = performance.now();
    for (let index = 0; index < RUNS; index += 1) await body();
    return ((performance.now() - started) * 1000) / (RUNS * ITERATIONS);
  }

  // Interleave rounds so machine noise hits every contender alike; keep each contender's best round.
  const best = { generateText: Infinity, streamText: Infinity, forgeInMemory: Infinity, forge: Infinity, checkpointed: Infinity };
  for (let round = 0; round < ROUNDS; round += 1) {
    best.generateText = Math.min(best.generateText, await measure(bareGenerateText));
    best.streamText = Math.min(best.streamText, await measure(bareStreamText));
    best.forgeInMemory = Math.min(best.forgeInMemory, await measure(() => forgeLoop({ persist: false })));
    best.forge = Math.min(best.forge, await measure(() => forgeLoop({ persist: true })));
    best.checkpointed = Math.min(best.checkpointed, await measure(forgeCheckpointed));
  }
  await store.close();
  rmSync(folder, { recursive: true, force: true });

  const rows = [
    ['AI SDK generateText tool loop (baseline)', best.generateText, 1],
    ['AI SDK streamText tool loop', best.streamText, best.streamText / best.generateText],
    ['Forge loop (dispatch + events, nothing persisted)', best.forgeInMemory, best.forgeInMemory / best.generateText],
    ['Forge loop (dispatch + events + run log + store)', best.forge, best.forge / best.generateText],
    ['Forge run (run service: + a RunState checkpoint committed per turn boundary)', best.checkpointed, best.checkpointed / best.generateText],
  ] as const;
  process.stdout.write(`loop overhead per iteration — ${ITERATIONS} iterations × ${RUNS} runs, best of ${ROUNDS} interleaved rounds, zero-latency model, no-op tool\n\n`);
  process.stdout.write(`${'contender'.padEnd(80)}${'µs/iteration'.padStart(14)}${'ratio'.padStart(10)}\n`);
  for (const [name, micros, ratio] of rows) process.stdout.write(`${name.padEnd(80)}${micros.toFixed(1).padStart(14)}${`${ratio.toFixed(2)}×`.padStart(10)}\n`);
  const ratio = best.checkpointed / best.generateText;
  process.stdout.write(`\ntarget: a Forge run with run log, store and checkpoints ≤ 1.20× generateText — ${ratio <= 1.2 ? 'within' : 'OVER'} target (${ratio.toFixed(2)}×)\n`);
}

await main();
