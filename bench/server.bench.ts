/**
 * N concurrent runs started and streamed through `forge serve`'s API (in this process, over loopback
 * HTTP), with aimock as the model answering every call after a fixed latency. Each run: a model call, a
 * no-op tool, a model call with the answer. Prints, per N: dropped and duplicated events against the
 * store (both must be 0), p50/p99 delay from an event's emission (its `ts`) to its receipt by the
 * client, memory per stream, wall time; then requests per second on a GET of one run.
 * Target (server issue): N = 200 at least, 0 dropped, 0 duplicated.
 *
 *   npm run bench:server            (COUNTS=50,200 LATENCY_MS=200 by default)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { defineTool, type ForgeEvent } from '../src/core/index.js';
import { openRuntime } from '../src/compose/index.js';
import { serveApi } from '../src/server/api/index.js';

const COUNTS = (process.env['COUNTS'] ?? '50,200').split(',').map(Number);
const LATENCY_MS = Number(process.env['LATENCY_MS'] ?? 200);
const GET_SECONDS = Number(process.env['GET_SECONDS'] ?? 3);

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const mock = new LLMock({ port: 0, host: '127.0.0.1', latency: LATENCY_MS });
  await mock.start();
  mock.on({ userMessage: 'bench stream', hasToolResult: false }, { toolCalls: [{ id: 'bench_noop', name: 'noop', arguments: { value: 1 } }] });
  mock.on({ toolCallId: 'bench_noop' }, { content: 'done' });
  const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-server-'));
  const runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: `${mock.url}/v1` }, home, { mcp: { startupWaitMs: 0 } });
  runtime.registry.register(defineTool({ name: 'noop', description: 'does nothing', inputSchema: z.object({ value: z.number() }), risk: 'low', sideEffect: 'read', execute: async ({ value }) => ({ value }) }));
  const server = await serveApi(runtime, { port: 0 });
  const client = new ForgeClient({ baseUrl: server.listener.origin });
  const rows: string[] = [];
  let someRun = '';
  try {
    for (const count of COUNTS) {
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50);
      const delays: number[] = [];
      const started = performance.now();
      const streams = await Promise.all(
        Array.from({ length: count }, async () => {
          const { run_id: runId } = await client.startRun({ task: 'bench stream', model: 'openai:gpt-4.1-mini', tools: ['noop'] });
          const read = await client.readEvents(runId, { onEvent: (event: ForgeEvent) => delays.push(Date.now() - Date.parse(event.ts)) });
          return { runId, events: read.events };
        }),
      );
      const wallMs = performance.now() - started;
      clearInterval(sampler);
      // The store's copy is complete once no run is active any more.
      while (runtime.runs.activeRunIds().length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      let dropped = 0;
      let duplicated = 0;
      let failed = 0;
      for (const stream of streams) {
        const stored = await runtime.store.events.list(stream.runId);
        const seqs = new Set(stream.events.map((event) => event.seq));
        duplicated += stream.events.length - seqs.size;
        dropped += stored.filter((event) => !seqs.has(event.seq)).length;
        if (stored.at(-1)?.type !== 'run-end' || (stored.at(-1) as { status?: string }).status !== 'completed') failed += 1;
      }
      someRun = streams[0]!.runId;
      const memoryPerStreamKb = Math.max(0, heapPeak - heapBefore) / count / 1024;
      rows.push(
        `| ${count} | ${dropped} | ${duplicated} | ${failed} | ${percentile(delays, 50).toFixed(0)} ms | ${percentile(delays, 99).toFixed(0)} ms | ${memoryPerStreamKb.toFixed(0)} KB | ${(wallMs / 1000).toFixed(2)} s |`,
      );
    }
    // Requests per second on a GET of one stored run, 50 at a time.
    let requests = 0;
    const until = performance.now() + GET_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (performance.now() < until) {
          await client.getRun(someRun);
          requests += 1;
        }
      }),
    );
    process.stdout.write(`concurrent streamed runs through the API — aimock answering each model call after ${LATENCY_MS} ms; 2 model calls and 1 tool per run\n\n`);
    process.stdout.write('| streams | dropped | duplicated | failed runs | delay p50 | delay p99 | heap / stream | wall |\n|---|---|---|---|---|---|---|---|\n');
    process.stdout.write(`${rows.join('\n')}\n\n`);
    process.stdout.write(`GET /api/v1/runs/{id}, 50 concurrent clients, ${GET_SECONDS} s: ${(requests / GET_SECONDS).toFixed(0)} requests/s\n`);
    process.stdout.write('target: N ≥ 200 streams with 0 dropped and 0 duplicated events\n');
  } finally {
    await server.close();
    await runtime.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
