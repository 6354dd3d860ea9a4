import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/runs/run-log/index.js';
import { runCli } from './support/built-cli.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

/**
 * `forge policy` from the built CLI, each command its own process: a conditional rule set in one process
 * decides calls in the next (a restart between them), the blocked call never reaches the fixture, the
 * allowed one does once, `forge policy test` explains, and a run's own --block tightens.
 */
describe('forge policy', () => {
  let world: EngineWorld;
  let hook: Server;
  let port = 0;
  const hookRequests: string[] = [];

  beforeAll(async () => {
    hook = createServer((request, response) => {
      hookRequests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"stored":true}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    port = (hook.address() as AddressInfo).port;
    world = await startEngineWorld();
    world.env['FORGE_RESOLVE'] = `${world.env['FORGE_RESOLVE']},hooks.forge-fixture.dev:${port}:127.0.0.1`;
    world.env['FORGE_ALLOW_HOSTS'] = `${world.env['FORGE_ALLOW_HOSTS']},hooks.forge-fixture.dev:${port}`;
    world.mock.on({ userMessage: 'post the report', hasToolResult: false }, { toolCalls: [{ id: 'call_post', name: 'http_request', arguments: { url: `http://hooks.forge-fixture.dev:${port}/run-post`, method: 'POST', body: '{}' } }] });
    world.mock.on({ toolCallId: 'call_post' }, { content: 'Could not post the report.' });
  });
  afterAll(async () => {
    hook.closeAllConnections();
    await new Promise((resolve) => hook.close(resolve));
    await world?.close();
  });

  const hits = (request: string) => hookRequests.filter((each) => each === request).length;
  const url = (path: string) => `http://hooks.forge-fixture.dev:${port}${path}`;

  it('a conditional rule set in one process blocks the matching call in the next, and only that one', async () => {
    const set = await runCli(['policy', 'set', 'http_request', 'block', '--when', 'method not_in GET,HEAD', '--reason', 'no writes from here', '--message', 'read-only installation'], world.env);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Saved the policy of installation as v1');
    expect(set.stdout).toContain('http_request: block when method not_in GET,HEAD');

    const blocked = await runCli(['tools', 'call', 'http_request', '--input', JSON.stringify({ url: url('/direct'), method: 'POST', body: '{}' }), '--json'], world.env);
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ ok: false, error: { name: 'PolicyBlockedError', message: expect.stringContaining('no writes from here') } });
    expect(hits('POST /direct')).toBe(0);
    const log = await readRunLog((JSON.parse(blocked.stdout) as { log_file: string }).log_file);
    expect(log.events.find((event) => event.type === 'policy-decision')).toMatchObject({ decision: 'block', rule: expect.stringContaining('installation v1 rule 1 (http_request: block when method is not GET or HEAD)') });
    expect(log.events.some((event) => event.type === 'tool-result')).toBe(false);

    const allowed = await runCli(['tools', 'call', 'http_request', '--input', JSON.stringify({ url: url('/direct'), method: 'GET' }), '--json'], world.env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(hits('GET /direct')).toBe(1);

    const tested = await runCli(['policy', 'test', 'http_request', '--input', JSON.stringify({ url: url('/x'), method: 'DELETE' }), '--json'], world.env);
    expect(tested.code, tested.stderr).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({ decision: 'block', side_effect: 'write', layers: [{ scope: 'installation', version: 1 }], trace: ['built-in default for medium risk: allow', expect.stringContaining('block')] });
    const explained = await runCli(['policy', 'test', 'http_request', '--input', JSON.stringify({ url: url('/x'), method: 'HEAD' })], world.env);
    expect(explained.stdout).toContain('http_request (medium risk, read): allow');

    const shown = await runCli(['policy', 'show'], world.env);
    expect(shown.stdout).toContain('built-in defaults: low=allow medium=allow high=require_approval critical=block');
    expect(shown.stdout).toContain('1. http_request: block when method not_in GET,HEAD');

    const unset = await runCli(['policy', 'unset', 'http_request', '--when', 'method not_in GET,HEAD'], world.env);
    expect(unset.code, unset.stderr).toBe(0);
    const versions = await runCli(['policy', 'versions', '--json'], world.env);
    expect((JSON.parse(versions.stdout) as { versions: Array<{ version: number; message: string }> }).versions.map((each) => [each.version, each.message])).toEqual([
      [2, 'unset http_request'],
      [1, 'read-only installation'],
    ]);
  }, 90_000);

  it("refuses a rule that does not validate, naming what and where, and saves nothing", async () => {
    const before = await runCli(['policy', 'versions', '--json'], world.env);
    const bad = await runCli(['policy', 'set', 'shell', 'block', '--when', 'command matches (a)\\1', '--json'], world.env);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { name: 'PolicyInvalidError', message: expect.stringContaining('when.0.matches') } });
    const operator = await runCli(['policy', 'set', 'shell', 'block', '--when', 'command resembles rm'], world.env);
    expect(operator.code).toBe(2);
    expect(operator.stderr).toContain('matches, in, not_in, host_not_in, outside');
    const after = await runCli(['policy', 'versions', '--json'], world.env);
    expect(after.stdout).toBe(before.stdout);
  }, 60_000);

  it("a run's own --block stops the model's call before it reaches the fixture, and the model is told", async () => {
    const run = await runCli(['run', '--no-tui', '--json', '--model', MODEL, '--block', 'http_request', 'post the report'], world.env);
    expect(run.code, run.stderr).toBe(0);
    expect(hits('POST /run-post')).toBe(0);
    const result = JSON.parse(run.stdout) as { run_id: string; log_file: string };
    const { events } = await readRunLog(result.log_file);
    expect(events.find((event) => event.type === 'policy-decision')).toMatchObject({ decision: 'block', rule: expect.stringContaining(`run:${result.run_id} v1 rule 1`) });
    expect(requestsMentioning(world.mock, 'http_request is blocked for this run (--block)').length).toBeGreaterThan(0);
    // The run's rules stay with the run: the next one is not blocked.
    const shown = await runCli(['policy', 'show', '--scope', `run:${result.run_id}`, '--json'], world.env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ version: 1, document: { rules: [{ tool: 'http_request', decision: 'block' }] } });
  }, 60_000);
});
