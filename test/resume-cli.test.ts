import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgeEvent, Store } from '../src/core/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { runCli, type CliResult } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

function runIdOf(result: CliResult): string {
  const runId = /run-start\s+(\w+)/.exec(result.stderr)?.[1];
  expect(runId, result.stderr).toBeDefined();
  return runId!;
}

async function withStore<T>(home: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ url: `file://${path.join(home, 'forge.db')}` });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Every event once, numbered densely from 0, in the log and the store alike. */
async function expectEveryEventOnce(home: string, runId: string, logFile: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(logFile);
  expect(error).toBeUndefined();
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  const stored = await withStore(home, (store) => store.events.list(runId));
  expect(stored).toEqual(events);
  return events;
}

/**
 * `forge run --resume` from the built CLI: a process killed with SIGKILL at a turn boundary goes on
 * from its checkpoint without running its completed call again; a side-effecting call that started and
 * never recorded a result is never run again.
 */
describe('forge run --resume', () => {
  let world: EngineWorld;
  let hook: Server;
  let hookUrl = '';
  const hookRequests: string[] = [];
  let onHookRequest: (() => void) | undefined;
  let heldModelCall: (() => void) | undefined;
  let nextModelCall: (() => void) | undefined;
  let arrivals = 0;

  beforeAll(async () => {
    // The outside world a write reaches: it counts every request, and may hold one until the process is dead.
    hook = createServer((request, response) => {
      hookRequests.push(`${request.method} ${request.url}`);
      if (request.url === '/hang') {
        onHookRequest?.();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"stored":true}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://hooks.forge-fixture.dev:${(hook.address() as AddressInfo).port}`;
    world = await startEngineWorld();
    const hookPort = (hook.address() as AddressInfo).port;
    world.env['FORGE_RESOLVE'] = `${world.env['FORGE_RESOLVE']},hooks.forge-fixture.dev:${hookPort}:127.0.0.1`;
    world.env['FORGE_ALLOW_HOSTS'] = `${world.env['FORGE_ALLOW_HOSTS']},hooks.forge-fixture.dev:${hookPort}`;

    world.mock.on({ userMessage: 'post the report once', hasToolResult: false }, { toolCalls: [{ id: 'post_report', name: 'http_request', arguments: { url: `${hookUrl}/reports`, method: 'POST', body: '{"report":1}' } }] });
    // The call after the tool result: the first time it is held while the process is killed; after the resume it answers.
    world.mock.addFixture({
      match: { toolCallId: 'post_report' },
      response: () => {
        arrivals += 1;
        if (arrivals === 1) {
          return new Promise((resolve) => {
            heldModelCall = () => resolve({ content: 'never delivered' });
            nextModelCall?.();
          });
        }
        return { content: 'The report was posted once.' };
      },
    });
    world.mock.on({ userMessage: 'post to the hanging hook', hasToolResult: false }, { toolCalls: [{ id: 'post_hang', name: 'http_request', arguments: { url: `${hookUrl}/hang`, method: 'POST', body: '{}' } }] });
    world.mock.on({ userMessage: 'a finished task', hasToolResult: false }, { content: 'Finished.' });
  });
  afterAll(async () => {
    heldModelCall?.();
    hook.closeAllConnections();
    await new Promise((resolve) => hook.close(resolve));
    await world?.close();
  });

  it('goes on after kill -9 between a completed call and the next model call: the call ran once, every event is logged and stored once, in order', async () => {
    const killed = await runCli(['run', '--no-tui', '--model', MODEL, 'post the report once'], world.env, {
      onSpawn: (child) => (nextModelCall = () => child.kill('SIGKILL')),
    });
    expect(killed.signal).toBe('SIGKILL');
    const runId = runIdOf(killed);
    expect(hookRequests.filter((request) => request === 'POST /reports')).toHaveLength(1);

    const resumed = await runCli(['run', '--resume', runId, '--json'], world.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout) as { run_id: string; status: string; answer: string; llm_calls: number; steps: unknown[]; log_file: string };
    expect(result).toMatchObject({ run_id: runId, status: 'completed', answer: 'The report was posted once.', llm_calls: 2 });
    expect(result.steps).toHaveLength(1);
    // The completed POST was answered from its recorded result, never sent again.
    expect(hookRequests.filter((request) => request === 'POST /reports')).toHaveLength(1);

    const events = await expectEveryEventOnce(world.home, runId, result.log_file);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'tool-call-start')).toHaveLength(1);
    expect(types.filter((type) => type === 'tool-result')).toHaveLength(1);
    // The next start ended the killed run interrupted; the resume then went on after that.
    const interruptedAt = events.findIndex((event) => event.type === 'run-end');
    expect(events[interruptedAt]).toMatchObject({ status: 'failed', halt_reason: 'interrupted' });
    // The last checkpoint still owed the POST a result: it was answered from the recorded one.
    expect(events[interruptedAt + 1]).toMatchObject({ type: 'run-resume', turn: 1, pending: ['post_report'] });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', halt_reason: 'final_answer', llm_calls: 2 });

    const shown = await runCli(['runs', 'show', runId, '--json'], world.env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run_id: runId, status: 'completed', halt_reason: 'final_answer', answer: 'The report was posted once.' });
    const steps = await withStore(world.home, (store) => store.steps.list(runId));
    expect(steps.map((step) => step.callId)).toEqual(['post_report']);

    // A finished run is not resumed again.
    const again = await runCli(['run', '--resume', runId], world.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Run ${runId} cannot be resumed: it ended completed (final_answer)`);
  }, 90_000);

  it('never runs again a side-effecting call that started and recorded no result: the run fails interrupted, naming it', async () => {
    const killed = await runCli(['run', '--no-tui', '--model', MODEL, 'post to the hanging hook'], world.env, {
      onSpawn: (child) => (onHookRequest = () => child.kill('SIGKILL')),
    });
    expect(killed.signal).toBe('SIGKILL');
    const runId = runIdOf(killed);
    expect(hookRequests.filter((request) => request === 'POST /hang')).toHaveLength(1);

    const resumed = await runCli(['run', '--resume', runId, '--json'], world.env);
    expect(resumed.code, resumed.stderr).toBe(1);
    const result = JSON.parse(resumed.stdout) as { status: string; halt_reason: string; error: { message: string }; log_file: string };
    expect(result).toMatchObject({ status: 'failed', halt_reason: 'interrupted' });
    expect(result.error.message).toContain('The call post_hang to http_request started before the process running it ended');
    expect(hookRequests.filter((request) => request === 'POST /hang')).toHaveLength(1);
    await expectEveryEventOnce(world.home, runId, result.log_file);
  }, 90_000);

  it('refuses what cannot be resumed, clearly', async () => {
    const done = await runCli(['run', '--no-tui', '--model', MODEL, 'a finished task'], world.env);
    expect(done.code, done.stderr).toBe(0);
    const unknown = await runCli(['run', '--resume', 'nosuchrun'], world.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nosuchrun');
    const withTask = await runCli(['run', '--resume', runIdOf(done), 'another task'], world.env);
    expect(withTask.code).toBe(2);
    expect(withTask.stderr).toContain('--resume: takes the run id alone');
    const noTask = await runCli(['run'], world.env);
    expect(noTask.code).toBe(2);
    expect(noTask.stderr).toContain('task: is missing');
  }, 60_000);
});
