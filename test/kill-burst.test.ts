import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgeEvent, RunRecord, Store } from '../src/core/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';
import { openRuntime } from '../src/compose/index.js';
import { databaseUrlFromEnv, openStore } from '../src/adapters/store/index.js';
import { TIMER_MODEL_CALLS } from './support/timer-model.js';
import { scratchUserHome } from './support/built-cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const burstScript = path.join(root, 'test', 'support', 'run-burst.ts');
const RUNS = 100;
/** The process is killed once this many runs have reported their result; most are still going then. */
const KILL_AFTER = 25;

interface KilledBurst {
  readonly signal: NodeJS.Signals | null;
  /** `<status> <run id>` lines the process printed before it died: each run's result had settled. */
  readonly reported: ReadonlyMap<string, string>;
  readonly stderr: string;
}

/** Starts the burst and kills it with SIGKILL as soon as KILL_AFTER runs have reported (bounded by a timeout). */
function burstKilledMidway(home: string): Promise<KilledBurst> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', burstScript, home, String(RUNS)], { cwd: root, env: { PATH: process.env['PATH'] ?? '', HOME: scratchUserHome() }, stdio: ['ignore', 'pipe', 'pipe'] });
    const reported = new Map<string, string>();
    let pending = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const [status, runId] = line.split(' ');
        if (status !== undefined && runId !== undefined) reported.set(runId, status);
      }
      if (reported.size >= KILL_AFTER) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, reported, stderr });
    });
  });
}

async function loggedEvents(run: RunRecord): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(run.logFile!);
  expect(error, run.id).toBeUndefined();
  return events;
}

describe('kill -9 during a burst of 100 concurrent runs', () => {
  let home: string;
  let killed: KilledBurst;
  /** Each run's events in its log, read before anything repaired the killed process's runs. */
  const logsAtKill = new Map<string, ForgeEvent[]>();
  const storedAtKill = new Map<string, ForgeEvent[]>();
  let runsAtKill: RunRecord[];

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-kill-burst-'));
    killed = await burstKilledMidway(home);
    // The store as the dead process left it: opened alone, so no run service ends its runs yet.
    const store: Store = await openStore({ url: databaseUrlFromEnv({}, home) });
    try {
      runsAtKill = await store.runs.list({ limit: RUNS * 2 });
      for (const run of runsAtKill) {
        logsAtKill.set(run.id, await loggedEvents(run));
        storedAtKill.set(run.id, await store.events.list(run.id));
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('was killed while runs were in flight, after some had completed', () => {
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(killed.reported.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect([...killed.reported.values()].every((status) => status === 'completed')).toBe(true);
    expect(runsAtKill).toHaveLength(RUNS);
    expect(runsAtKill.filter((run) => run.status === 'running').length).toBeGreaterThan(0);
  });

  it('lost nothing the store had committed or the log had written: the store never holds an event its log lacks, and trails it by its flush interval', () => {
    const lastLogged = Math.max(...[...logsAtKill.values()].flatMap((events) => events.map((event) => Date.parse(event.ts))));
    for (const run of runsAtKill) {
      const logged = logsAtKill.get(run.id)!;
      const stored = storedAtKill.get(run.id)!;
      // What the store has is the log's beginning; what it lacks are the newest events, held back at most
      // 100 ms before their commit (plus timer lateness on a loaded machine).
      expect(stored, run.id).toEqual(logged.slice(0, stored.length));
      for (const missed of logged.slice(stored.length)) expect(lastLogged - Date.parse(missed.ts), run.id).toBeLessThan(600);
    }
  });

  it('has every run the process reported completed complete in the store, with all the events of its log', async () => {
    const store = await openStore({ url: databaseUrlFromEnv({}, home) });
    try {
      for (const runId of killed.reported.keys()) {
        const run = runsAtKill.find((candidate) => candidate.id === runId)!;
        expect(run).toMatchObject({ status: 'completed', haltReason: 'final_answer', answer: 'done', llmCalls: TIMER_MODEL_CALLS });
        const logged = logsAtKill.get(runId)!;
        expect(storedAtKill.get(runId)).toEqual(logged);
        expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index));
        expect(logged.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
        expect(await store.steps.list(runId)).toHaveLength(TIMER_MODEL_CALLS - 1);
        expect(await store.modelCalls.list(runId)).toHaveLength(TIMER_MODEL_CALLS);
      }
    } finally {
      await store.close();
    }
  });

  it('on the next start, ends the runs in flight from their logs: the events the store missed are stored, and each ends failed (interrupted)', async () => {
    const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    try {
      const runs = await runtime.store.runs.list({ limit: RUNS * 2 });
      expect(runs).toHaveLength(RUNS);
      expect(runs.filter((run) => run.status === 'running')).toEqual([]);
      for (const before of runsAtKill) {
        const after = runs.find((run) => run.id === before.id)!;
        const loggedBefore = logsAtKill.get(before.id)!;
        const logged = await loggedEvents(after);
        const stored = await runtime.store.events.list(after.id);
        // The store now holds exactly what the log holds, seq 0..n, ending with the run's one run-end.
        expect(stored, after.id).toEqual(logged);
        expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index));
        expect(logged.filter((event) => event.type === 'run-end')).toHaveLength(1);
        expect(logged.at(-1)?.type).toBe('run-end');
        if (before.status !== 'running') {
          expect(after).toMatchObject({ status: before.status });
          expect(logged).toEqual(loggedBefore);
        } else if (loggedBefore.at(-1)?.type === 'run-end') {
          // Killed between its run-end's log line and the store's commit: it ended as its log says.
          expect(logged).toEqual(loggedBefore);
          expect(after.status).toBe('completed');
        } else {
          expect(logged.slice(0, -1)).toEqual(loggedBefore);
          expect(after).toMatchObject({ status: 'failed', haltReason: 'interrupted' });
          expect(logged.at(-1)).toMatchObject({ type: 'run-end', status: 'failed', halt_reason: 'interrupted' });
          expect(await runtime.store.steps.list(after.id)).toHaveLength(logged.filter((event) => event.type === 'tool-result').length);
          expect(await runtime.store.modelCalls.list(after.id)).toHaveLength(logged.filter((event) => event.type === 'model-call').length);
        }
      }
    } finally {
      await runtime.close();
    }
  });
});
