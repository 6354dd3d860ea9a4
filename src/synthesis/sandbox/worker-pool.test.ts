import { describe, expect, it, vi } from 'vitest';
import { runInSandbox } from './run-in-sandbox.js';
import { closeIdleSandboxWorkers, sandboxWorkerStatistics, warmSandbox } from './sandbox-workers.js';
import { MAXIMUM_WORKERS } from './worker-pool.js';

const limits = { cpuMs: 300, wallMs: 5_000, memoryBytes: 8 * 1024 * 1024 };

function run(source: string, input: unknown = null) {
  return runInSandbox({ source, input: input as null, capabilities: [], limits });
}

/** Runs `action` and returns how the pool's counters moved meanwhile. */
async function poolChange(action: () => Promise<unknown>) {
  const before = await sandboxWorkerStatistics();
  await action();
  const after = await sandboxWorkerStatistics();
  return { started: after.started - before.started, runs: after.runs - before.runs, discarded: after.discarded - before.discarded, queued: after.queued - before.queued };
}

describe('the sandbox worker pool', () => {
  it('serves runs one after another from the same started workers', async () => {
    await run('export default async function run() { return 1; }');
    const change = await poolChange(async () => {
      for (let index = 0; index < 5; index += 1) expect(await run('export default async function run(n) { return n * 2; }', index)).toMatchObject({ ok: true, value: index * 2 });
    });
    expect(change).toEqual({ started: 0, runs: 5, discarded: 0, queued: 0 });
  });

  it('keeps a worker whose guest merely threw, and ends one whose guest hit a limit or the wall deadline', async () => {
    await run('export default async function run() { return 1; }');
    expect(await poolChange(() => run('export default async function run() { throw new TypeError("bad input"); }'))).toMatchObject({ discarded: 0 });
    expect(await poolChange(() => run('export default async function run() { for (;;) {} }'))).toMatchObject({ runs: 1, discarded: 1 });
    expect(await poolChange(() => run('export default async function run() { const all = []; for (;;) all.push("x".repeat(1000) + all.length); }'))).toMatchObject({
      runs: 1,
      discarded: 1,
    });
    const stuck = () => runInSandbox({ source: 'export default async function run() { for (;;) {} }', input: null, capabilities: [], limits: { ...limits, cpuMs: 60_000, wallMs: 300 } });
    expect(await poolChange(stuck)).toMatchObject({ runs: 1, discarded: 1 });
    // Whatever was ended, the next run still gets a working sandbox.
    expect(await run('export default async function run() { return "still here"; }')).toMatchObject({ ok: true, value: 'still here' });
  });

  it('warms up ahead of a run: a worker is started and waiting before any run asks for one', async () => {
    await sandboxWorkerStatistics();
    await closeIdleSandboxWorkers();
    const before = await sandboxWorkerStatistics();
    warmSandbox();
    // The spare worker is started in the background: wait until the pool reports it idle and ready.
    await vi.waitFor(async () => {
      const after = await sandboxWorkerStatistics();
      expect({ started: after.started - before.started, idle: after.idle, runs: after.runs - before.runs }).toEqual({ started: 1, idle: 1, runs: 0 });
    }, { timeout: 20_000, interval: 10 });
  });

  it('starts workers again after the idle ones were closed', async () => {
    await run('export default async function run() { return 1; }');
    await closeIdleSandboxWorkers();
    expect((await sandboxWorkerStatistics()).idle).toBe(0);
    const change = await poolChange(async () => expect(await run('export default async function run() { return 2; }')).toMatchObject({ ok: true, value: 2 }));
    expect(change.started).toBeGreaterThanOrEqual(1);
  });

  it('serves many overlapping runs with at most its maximum of workers, the rest waiting their turn', async () => {
    const count = MAXIMUM_WORKERS * 3;
    let results: Awaited<ReturnType<typeof run>>[] = [];
    const change = await poolChange(async () => {
      results = await Promise.all(Array.from({ length: count }, (_, index) => run('export default async function run(n) { return n + 1; }', index)));
    });
    expect(results.map((result) => result.ok && result.value)).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    const after = await sandboxWorkerStatistics();
    expect(after.busy).toBe(0);
    expect(change.started).toBeLessThanOrEqual(MAXIMUM_WORKERS);
    expect(change.queued).toBeGreaterThanOrEqual(count - MAXIMUM_WORKERS);
  });

  it('lets a queued run wait without spending its wall deadline', async () => {
    const hold = 'export default async function run() { const end = Date.now() + 700; while (Date.now() < end) {} return "held"; }';
    const change = await poolChange(async () => {
      const holders = Array.from({ length: MAXIMUM_WORKERS }, () => runInSandbox({ source: hold, input: null, capabilities: [], limits: { ...limits, cpuMs: 5_000 } }));
      const queued = runInSandbox({ source: 'export default async function run() { return "served"; }', input: null, capabilities: [], limits: { ...limits, wallMs: 500 } });
      expect(await queued).toMatchObject({ ok: true, value: 'served' });
      expect((await Promise.all(holders)).every((result) => result.ok)).toBe(true);
    });
    expect(change.queued).toBe(1);
  });
});
