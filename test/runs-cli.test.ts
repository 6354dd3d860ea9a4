import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgeEvent } from '../src/core/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';
import type { RunView } from '../src/runs/index.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

/** The run lifecycle from the built CLI: a killed process's run, direct tool calls as runs, `forge runs`. */
describe('recorded runs', () => {
  let world: EngineWorld;
  let secondModelCall: (() => void) | undefined;
  let releaseHeldCall: (() => void) | undefined;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'killed mid-run task', hasToolResult: false }, { toolCalls: [{ id: 'killed_search', name: 'web_search', arguments: { query: 'forge caching' } }] });
    // The model call after the tool result is held until the process is dead: it is killed while that call waits.
    world.mock.addFixture({
      match: { toolCallId: 'killed_search' },
      response: () =>
        new Promise((resolve) => {
          releaseHeldCall = () => resolve({ content: 'never delivered' });
          secondModelCall?.();
        }),
    });
  });
  afterAll(async () => {
    releaseHeldCall?.();
    await world?.close();
  });

  it('a run whose process is killed (kill -9) after a tool call shows failed (interrupted) from the next start, its log ending in order', async () => {
    const killed = await runCli(['run', '--no-tui', '--model', 'openai:gpt-4.1-mini', 'killed mid-run task'], world.env, {
      // After the tool call, while the next model call waits at the model.
      onSpawn: (child) => (secondModelCall = () => child.kill('SIGKILL')),
    });
    expect(killed.signal).toBe('SIGKILL');
    // The run id is on the first line; its log is found from the run's record, as a user would.
    const runId = /run-start\s+(\w+)/.exec(killed.stderr)?.[1];
    expect(runId, killed.stderr).toBeDefined();
    const logName = (await readdir(path.join(world.home, 'runs'))).find((name) => name.endsWith(`-${runId}.jsonl`));
    expect(logName).toBeDefined();
    const logFile = path.join(world.home, 'runs', logName!);
    const before = await readRunLog(logFile);
    expect(before.events.at(-1)?.type).not.toBe('run-end');

    // Any next start ends it; `forge runs list` is one.
    const listed = await runCli(['runs', 'list', '--json'], world.env);
    expect(listed.code, listed.stderr).toBe(0);
    const run = (JSON.parse(listed.stdout) as { runs: RunView[] }).runs.find((candidate) => candidate.run_id === runId!);
    expect(run).toMatchObject({ kind: 'agent', status: 'failed', halt_reason: 'interrupted', task: 'killed mid-run task', log_file: logFile, error: expect.stringContaining('ended before the run finished') });

    const after = await readRunLog(logFile);
    expect(after.error).toBeUndefined();
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(after.events).toHaveLength(before.events.length + 1);
    expect(after.events.at(-1)).toMatchObject({ type: 'run-end', status: 'failed', halt_reason: 'interrupted', seq: before.events.length, llm_calls: 1 });
    expect(after.events.filter((event) => event.type === 'tool-result').map((event) => (event as Extract<ForgeEvent, { type: 'tool-result' }>).tool)).toEqual(['web_search']);

    // It is ended once: a second start leaves it alone.
    const again = await runCli(['runs', 'show', runId!, '--json'], world.env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ run_id: runId, status: 'failed', halt_reason: 'interrupted' });
    expect((await readRunLog(logFile)).events).toHaveLength(after.events.length);

    const stats = await runCli(['stats', '--json', logFile], world.env);
    expect(JSON.parse(stats.stdout)).toMatchObject({ run_id: runId, status: 'failed', halt_reason: 'interrupted', tool_calls: 1 });
  }, 60_000);

  it('forge tools call is a recorded one-step run of kind tool-call', async () => {
    const called = await runCli(['tools', 'call', 'web_search', '--json', '--input', JSON.stringify({ query: 'forge caching' })], world.env);
    expect(called.code, called.stderr).toBe(0);
    const { run_id: runId, log_file: logFile } = JSON.parse(called.stdout) as { run_id: string; log_file: string };

    const shown = await runCli(['runs', 'show', runId, '--json'], world.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run_id: runId, kind: 'tool-call', status: 'completed', halt_reason: 'final_answer', llm_calls: 0, log_file: logFile });
    const { events, error } = await readRunLog(logFile);
    expect(error).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual(['run-start', 'tool-call-start', 'policy-decision', 'tool-result', 'run-end']);

    const text = await runCli(['runs', 'show', runId], world.env);
    expect(text.stdout).toMatch(/status\s+completed \(final_answer\)/);
    expect(text.stdout).toContain(logFile);
    expect((await readFile(logFile, 'utf8')).trim().split('\n')).toHaveLength(events.length);
  });

  it('forge runs list filters by status, and bad options and unknown ids get clear errors', async () => {
    const completed = await runCli(['runs', 'list', '--status', 'completed', '--json'], world.env);
    expect(completed.code, completed.stderr).toBe(0);
    const runs = (JSON.parse(completed.stdout) as { runs: RunView[] }).runs;
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.status === 'completed')).toBe(true);

    const bad = await runCli(['runs', 'list', '--status', 'done'], world.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status: must be one of queued, running, waiting, completed, failed, cancelled, refused');

    const missing = await runCli(['runs', 'show', 'no-such-run'], world.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No run with id "no-such-run"');
    expect(missing.stderr).toContain('forge runs list');
  });
});
