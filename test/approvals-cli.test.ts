import type { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/runs/run-log/index.js';
import { runCli, type CliResult } from './support/built-cli.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

interface ApprovalView {
  run_id: string;
  call_id: string;
  tool: string;
  input_digest: string;
  status: string;
}

/** Starts `forge run --wait-for-approval`, resolving `paused` with the run id once it says it waits. */
function startWaitingRun(world: EngineWorld, task: string, extraEnv: Record<string, string> = {}) {
  let child: ReturnType<typeof spawn> | undefined;
  let announce: (runId: string) => void = () => undefined;
  const paused = new Promise<string>((resolve) => (announce = resolve));
  const done: Promise<CliResult> = runCli(['run', '--no-tui', '--wait-for-approval', '--model', MODEL, task], { ...world.env, ...extraEnv }, {
    timeoutMs: 60_000,
    onSpawn: (spawned) => {
      child = spawned;
      let seen = '';
      spawned.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const waiting = /answer: forge approvals approve (\w+) /.exec(seen);
        if (waiting !== null) announce(waiting[1]!);
      });
    },
  });
  return { paused, done, kill: () => child?.kill('SIGKILL') };
}

/**
 * Approvals as interruptions, from the built CLI: a call that needs approval pauses its run (waiting),
 * another process answers it, and the run goes on: an approved call runs once, a denied call never
 * runs and the model is told why; answers are bound to run and call and used once; a restart between
 * request and answer works; a waiting run expires or is cancelled.
 */
describe('forge approvals', () => {
  let world: EngineWorld;
  let hook: Server;
  const hookRequests: string[] = [];
  const guarded: Record<string, string> = { FORGE_REQUIRE_APPROVAL: 'http_request' };

  beforeAll(async () => {
    hook = createServer((request, response) => {
      hookRequests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"stored":true}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const port = (hook.address() as AddressInfo).port;
    world = await startEngineWorld();
    world.env['FORGE_RESOLVE'] = `${world.env['FORGE_RESOLVE']},hooks.forge-fixture.dev:${port}:127.0.0.1`;
    world.env['FORGE_ALLOW_HOSTS'] = `${world.env['FORGE_ALLOW_HOSTS']},hooks.forge-fixture.dev:${port}`;
    const post = (id: string, path: string) => ({ toolCalls: [{ id, name: 'http_request', arguments: { url: `http://hooks.forge-fixture.dev:${port}${path}`, method: 'POST', body: '{}' } }] });
    for (const [task, id, path] of [
      ['approve this post', 'call_approve', '/approved'],
      ['deny this post', 'call_deny', '/denied'],
      ['approve after a restart', 'call_restart', '/restarted'],
      ['let this one expire', 'call_expire', '/expired'],
      ['cancel this one', 'call_cancel', '/cancelled'],
      ['refuse without a waiter', 'call_refuse', '/refused'],
    ] as const) {
      world.mock.on({ userMessage: task, hasToolResult: false }, post(id, path));
      world.mock.on({ toolCallId: id }, { content: `Done with ${id}.` });
    }
  });
  afterAll(async () => {
    hook.closeAllConnections();
    await new Promise((resolve) => hook.close(resolve));
    await world?.close();
  });

  const hits = (path: string) => hookRequests.filter((request) => request === `POST ${path}`).length;

  it('pauses a call that needs approval; an answer from a second process resumes it and the tool runs once; answers are bound and used once', async () => {
    const run = startWaitingRun(world, 'approve this post', guarded);
    const runId = await run.paused;
    expect(hits('/approved')).toBe(0);

    const listed = await runCli(['approvals', 'list', '--json'], { ...world.env, ...guarded });
    const pending = (JSON.parse(listed.stdout) as { approvals: ApprovalView[] }).approvals.filter((approval) => approval.run_id === runId);
    expect(pending).toEqual([expect.objectContaining({ call_id: 'call_approve', tool: 'http_request', status: 'pending' })]);
    const shown = await runCli(['runs', 'show', runId, '--json'], world.env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'waiting', halt_reason: 'awaiting_approval' });

    const wrongCall = await runCli(['approvals', 'approve', runId, 'call_other'], world.env);
    expect(wrongCall.code).toBe(1);
    expect(wrongCall.stderr).toContain('call_approve');
    const wrongDigest = await runCli(['approvals', 'approve', runId, 'call_approve', '--digest', 'ffff0000'], world.env);
    expect(wrongDigest.code).toBe(1);
    expect(wrongDigest.stderr).toContain('is bound to input');

    const approved = await runCli(['approvals', 'approve', runId, 'call_approve', '--digest', pending[0]!.input_digest.slice(0, 12)], world.env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('goes on in the process that waits');

    const finished = await run.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain('Done with call_approve.');
    expect(hits('/approved')).toBe(1);

    const twice = await runCli(['approvals', 'approve', runId, 'call_approve'], world.env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('it can be answered once');
    const end = await runCli(['runs', 'show', runId, '--json'], world.env);
    const view = JSON.parse(end.stdout) as { status: string; log_file: string; steps: unknown[] };
    expect(view.status).toBe('completed');
    // runs show lists the run's tool calls: the approved POST, once.
    expect(view.steps).toEqual([expect.objectContaining({ index: 0, call_id: 'call_approve', tool: 'http_request', ok: true, input: expect.objectContaining({ method: 'POST' }) })]);
    expect((await runCli(['runs', 'show', runId], world.env)).stdout).toMatch(/steps {6}1\n {3}1\. ✓ http_request \(\d+ ms\)/);
    const { events } = await readRunLog(view.log_file);
    const types = events.map((event) => event.type);
    expect(types).toContain('approval-request');
    expect(types).toContain('run-pause');
    expect(events.find((event) => event.type === 'approval-answer')).toMatchObject({ call_id: 'call_approve', decision: 'approved' });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  }, 90_000);

  it('a denied call never runs, and the model is told the reason', async () => {
    const run = startWaitingRun(world, 'deny this post', guarded);
    const runId = await run.paused;
    const missingReason = await runCli(['approvals', 'deny', runId, 'call_deny'], world.env);
    expect(missingReason.code).toBe(2);
    const denied = await runCli(['approvals', 'deny', runId, 'call_deny', '--reason', 'not this account, ever'], world.env);
    expect(denied.code, denied.stderr).toBe(0);
    const finished = await run.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(hits('/denied')).toBe(0);
    const told = requestsMentioning(world.mock, 'not this account, ever');
    expect(told.length).toBeGreaterThan(0);
  }, 90_000);

  it('an answer given after the waiting process died resumes the run in the answering process', async () => {
    const run = startWaitingRun(world, 'approve after a restart', guarded);
    const runId = await run.paused;
    run.kill();
    expect((await run.done).signal).toBe('SIGKILL');
    // A waiting run needs no process: the next start leaves it waiting.
    const listed = await runCli(['runs', 'show', runId, '--json'], world.env);
    expect(JSON.parse(listed.stdout)).toMatchObject({ status: 'waiting' });

    const approved = await runCli(['approvals', 'approve', runId, 'call_restart', '--json'], { ...world.env, ...guarded });
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ approval: { status: 'approved' }, resumed: { run_id: runId, status: 'completed', answer: 'Done with call_restart.' } });
    expect(hits('/restarted')).toBe(1);
  }, 90_000);

  it('a waiting run expires unanswered, and one can be cancelled; neither call runs', async () => {
    const expiring = startWaitingRun(world, 'let this one expire', { ...guarded, FORGE_APPROVAL_TIMEOUT: '1' });
    const expiredId = await expiring.paused;
    const expired = await expiring.done;
    expect(expired.code).toBe(1);
    const shown = await runCli(['runs', 'show', expiredId, '--json'], world.env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'failed', halt_reason: 'approval_expired' });
    expect(hits('/expired')).toBe(0);
    const late = await runCli(['approvals', 'approve', expiredId, 'call_expire'], world.env);
    expect(late.code).toBe(1);

    const cancelling = startWaitingRun(world, 'cancel this one', guarded);
    const cancelId = await cancelling.paused;
    cancelling.kill();
    await cancelling.done;
    const cancelled = await runCli(['runs', 'cancel', cancelId, '--json'], world.env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ status: 'cancelled', halt_reason: 'cancelled' });
    const stillPending = await runCli(['approvals', 'list', '--json'], world.env);
    expect((JSON.parse(stillPending.stdout) as { approvals: ApprovalView[] }).approvals.filter((approval) => approval.run_id === cancelId)).toEqual([]);
    expect(hits('/cancelled')).toBe(0);
  }, 90_000);

  it('a run nobody can answer (no --wait-for-approval, no terminal) is refused, never assumed', async () => {
    const refused = await runCli(['run', '--no-tui', '--json', '--model', MODEL, 'refuse without a waiter'], { ...world.env, ...guarded });
    expect(refused.code, refused.stderr).toBe(0);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'completed', steps: [expect.objectContaining({ ok: false, error: expect.objectContaining({ name: 'ApprovalDeniedError' }) })] });
    expect(hits('/refused')).toBe(0);
    // The refusal tells the CLI user how to answer next time.
    const [step] = (JSON.parse(refused.stdout) as { steps: { error: { message: string } }[] }).steps;
    expect(step?.error.message).toContain('--wait-for-approval');
  }, 60_000);
});
