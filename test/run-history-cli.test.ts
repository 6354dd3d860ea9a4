import { access, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/core/index.js';
import type { RunView } from '../src/runs/index.js';
import { loadConfig } from '../src/config/forge-config.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { inStoreProcess } from './support/store-process.js';

const MODEL = 'openai:gpt-4.1-mini';

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Run history from the built CLI: id prefixes wherever a run id goes, `forge replay <id|prefix|--last>`, `forge runs delete`. */
describe('run history', () => {
  let world: EngineWorld;
  let agentRun: RunView;
  let toolRun: RunView;

  /** `work` on the store the CLI uses, in a process of its own (see `inStoreProcess`): it may use only `store` and `args`. */
  function withStore<Result, Args = null>(work: (store: Store, args: Args) => Promise<Result>, args?: Args): Promise<Result> {
    return inStoreProcess(loadConfig(world.env, world.home).databaseUrl, work, (args ?? null) as Args);
  }

  async function showRun(reference: string): Promise<RunView> {
    const shown = await runCli(['runs', 'show', reference, '--json'], world.env);
    expect(shown.code, shown.stderr).toBe(0);
    return JSON.parse(shown.stdout) as RunView;
  }

  /** A unique prefix of `id` among the stored runs: the shortest one the CLI accepts. */
  async function uniquePrefixOf(id: string): Promise<string> {
    const ids = await withStore(async (store) => (await store.runs.list()).map((run) => run.id));
    for (let length = 1; length < id.length; length += 1) {
      const prefix = id.slice(0, length);
      if (ids.filter((other) => other.startsWith(prefix)).length === 1) return prefix;
    }
    return id;
  }

  beforeAll(async () => {
    world = await startEngineWorld();
    world.env['HOME'] = world.home;
    world.mock.on({ userMessage: 'history search task', hasToolResult: false }, { toolCalls: [{ id: 'history_search', name: 'web_search', arguments: { query: 'forge caching' } }], usage: { prompt_tokens: 50, completion_tokens: 10 } });
    world.mock.on({ toolCallId: 'history_search' }, { content: 'Forge caches read-only tool results.', usage: { prompt_tokens: 300, completion_tokens: 9 } });
    const ran = await runCli(['run', '--json', '--model', MODEL, 'history search task'], world.env);
    expect(ran.code, ran.stderr).toBe(0);
    agentRun = await showRun((JSON.parse(ran.stdout) as { run_id: string }).run_id);
    const called = await runCli(['tools', 'call', 'web_search', '--json', '--input', JSON.stringify({ query: 'forge replay' })], world.env);
    expect(called.code, called.stderr).toBe(0);
    toolRun = await showRun((JSON.parse(called.stdout) as { run_id: string }).run_id);
    // Two runs whose ids share a prefix, as random ids sometimes do.
    await withStore(
      async (store, model) => {
        for (const id of ['abc123000001', 'abc123000002']) {
          await store.runs.create({ id, task: `twin run ${id}`, model, conversationId: null });
          await store.runs.update(id, { status: 'completed', haltReason: 'final_answer' });
        }
      },
      MODEL,
    );
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('forge runs show takes a unique prefix of a run id, and an ambiguous prefix is an error listing the candidates', async () => {
    const prefix = await uniquePrefixOf(agentRun.run_id);
    expect(await showRun(prefix)).toEqual(agentRun);
    const text = await runCli(['runs', 'show', prefix], world.env);
    expect(text.stdout).toContain(`run        ${agentRun.run_id} (agent)`);

    const ambiguous = await runCli(['runs', 'show', 'abc123'], world.env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('Run id prefix "abc123" matches 2 runs:');
    expect(ambiguous.stderr).toMatch(/abc123000002 .* twin run abc123000002\n.*abc123000001 .* twin run abc123000001/);
    expect(ambiguous.stderr).toContain('Give more characters of the id');

    const json = await runCli(['runs', 'show', 'abc123', '--json'], world.env);
    expect(JSON.parse(json.stdout)).toEqual({ error: { name: 'AmbiguousRunIdError', message: expect.stringContaining('matches 2 runs'), hint: expect.stringContaining('forge runs list') } });
    expect((await showRun('abc123000001')).task).toBe('twin run abc123000001');

    const missing = await runCli(['runs', 'show', 'ffffffffffff0'], world.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No run with id "ffffffffffff0"');
  });

  it('forge replay takes a run id, a prefix or --last, and finds the run log from the store', async () => {
    const byPrefix = await runCli(['replay', await uniquePrefixOf(agentRun.run_id), '--json'], world.env);
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(JSON.parse(byPrefix.stdout)).toMatchObject({ file: agentRun.log_file, run_id: agentRun.run_id, status: 'completed', llm_calls: 2 });

    const trace = await runCli(['replay', agentRun.run_id, '--no-tui'], world.env);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toContain('tool-call-start');
    expect(trace.stdout.trim().split('\n')).toHaveLength((await readFile(agentRun.log_file!, 'utf8')).trim().split('\n').length);

    // The twins are newest but have no log: --last says so instead of replaying an older run.
    const lastWithoutLog = await runCli(['replay', '--last', '--json'], world.env);
    expect(lastWithoutLog.code).toBe(1);
    expect(JSON.parse(lastWithoutLog.stdout)).toMatchObject({ error: { name: 'NotFoundError', message: 'No run log of run with id "abc123000002".' } });
    const called = await runCli(['tools', 'call', 'web_search', '--json', '--input', JSON.stringify({ query: 'newest run' })], world.env);
    const newest = JSON.parse(called.stdout) as { run_id: string; log_file: string };
    const last = await runCli(['replay', '--last', '--json'], world.env);
    expect(last.code, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ file: newest.log_file, run_id: newest.run_id, tool_calls: 1 });

    const ambiguous = await runCli(['replay', 'abc123'], world.env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('matches 2 runs');
    const neither = await runCli(['replay'], world.env);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('run: is missing: name a run log file, a run id (or a unique prefix), or pass --last.');
    const both = await runCli(['replay', agentRun.run_id, '--last'], world.env);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--last: cannot be combined with a run');
  }, 60_000);

  it('every other command that takes a run id takes a unique prefix: stats, run --resume, runs cancel, approvals', async () => {
    const prefix = await uniquePrefixOf(agentRun.run_id);
    const stats = await runCli(['stats', '--run', prefix, '--json'], world.env);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ run_id: agentRun.run_id, llm_calls: 2, tool_calls: 1 });
    const statsAmbiguous = await runCli(['stats', '--run', 'abc123'], world.env);
    expect(statsAmbiguous.code).toBe(1);
    expect(statsAmbiguous.stderr).toContain('matches 2 runs');

    // Each refuses for the full id the prefix named: the prefix was resolved before the command's own checks.
    const resume = await runCli(['run', '--resume', prefix], world.env);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain(`Run ${agentRun.run_id} cannot be resumed: it ended completed (final_answer).`);
    const cancel = await runCli(['runs', 'cancel', prefix], world.env);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain(`Run ${agentRun.run_id} is completed; only a waiting run can be cancelled`);
    const approve = await runCli(['approvals', 'approve', prefix, 'call_none'], world.env);
    expect(approve.code).toBe(1);
    expect(approve.stderr).toContain(`No approval request with id "${agentRun.run_id} call_none"`);
    const deny = await runCli(['approvals', 'deny', 'abc123', 'call_none', '--reason', 'no'], world.env);
    expect(deny.code).toBe(1);
    expect(deny.stderr).toContain('matches 2 runs');
  }, 60_000);

  it('forge runs delete removes a run with its run log, events, steps, model calls, run state and approvals, and nothing of other runs', async () => {
    const ids = { agent: agentRun.run_id, tool: toolRun.run_id };
    const before = await withStore(
      async (store, { agent, tool }) => ({
        events: (await store.events.list(agent)).length,
        steps: (await store.steps.list(agent)).length,
        modelCalls: (await store.modelCalls.list(agent)).length,
        state: await store.runStates.get(agent),
        toolRunEvents: await store.events.list(tool),
      }),
      ids,
    );
    expect(before).toMatchObject({ events: expect.any(Number), steps: 1, modelCalls: 2, state: expect.anything() });
    expect(before.events).toBeGreaterThan(4);
    await withStore((store, runId) => store.approvals.request({ runId, callId: 'call_old', tool: 'http_request', inputDigest: 'ab'.repeat(32), reason: 'asked once', expiresAt: null }), agentRun.run_id);
    expect(await exists(agentRun.log_file!)).toBe(true);

    const deleted = await runCli(['runs', 'delete', await uniquePrefixOf(agentRun.run_id), '--json'], world.env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: [{ run_id: agentRun.run_id, log_file: agentRun.log_file }] });

    expect(await exists(agentRun.log_file!)).toBe(false);
    expect(
      await withStore(
        async (store, { agent, tool }) => ({
          run: await store.runs.get(agent),
          events: await store.events.list(agent),
          steps: await store.steps.list(agent),
          modelCalls: await store.modelCalls.list(agent),
          state: await store.runStates.get(agent),
          approvals: await store.approvals.list({ runId: agent }),
          toolRunEvents: await store.events.list(tool),
        }),
        ids,
      ),
    ).toEqual({ run: undefined, events: [], steps: [], modelCalls: [], state: undefined, approvals: [], toolRunEvents: before.toolRunEvents });
    expect(await exists(toolRun.log_file!)).toBe(true);
    const shown = await runCli(['runs', 'show', agentRun.run_id], world.env);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain(`No run with id "${agentRun.run_id}"`);
  }, 60_000);

  it('forge runs delete refuses a running or waiting run unless --force, and deletes nothing when one reference fails', async () => {
    // Owned by this test process, which is alive: opening the CLI does not end them as interrupted.
    const owner = { pid: process.pid, host: hostname() };
    await withStore(
      async (store, { model, owner }) => {
        await store.runs.create({ id: 'live00000001', task: 'a run in progress', model, conversationId: null, owner });
        await store.runs.create({ id: 'wait00000001', task: 'a run waiting for an approval', model, conversationId: null, owner });
        await store.runs.update('wait00000001', { status: 'waiting', haltReason: 'awaiting_approval' });
      },
      { model: MODEL, owner },
    );

    const running = await runCli(['runs', 'delete', 'live0'], world.env);
    expect(running.code).toBe(1);
    expect(running.stderr).toContain(`Run live00000001 is not deleted: it is running (pid ${process.pid} on ${hostname()}): deleting it would drop a run in progress`);
    expect(running.stderr).toContain('Stop it first (Ctrl-C in its terminal), or pass --force to delete it anyway.');
    const waiting = await runCli(['runs', 'delete', toolRun.run_id, 'wait0', '--json'], world.env);
    expect(waiting.code).toBe(1);
    expect(JSON.parse(waiting.stdout)).toEqual({
      error: { name: 'RunNotDeletableError', message: 'Run wait00000001 is not deleted: it waits for an approval: deleting it drops the request unanswered.', hint: 'Cancel it first with `forge runs cancel wait00000001`, or pass --force to delete it anyway.' },
    });
    const unknown = await runCli(['runs', 'delete', toolRun.run_id, 'no-such-run'], world.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No run with id "no-such-run"');
    // Nothing was deleted by the refusals, the valid references in them included.
    expect((await showRun(toolRun.run_id)).status).toBe('completed');
    expect(await exists(toolRun.log_file!)).toBe(true);
    expect(await withStore(async (store) => [await store.runs.get('live00000001'), await store.runs.get('wait00000001')])).toMatchObject([{ status: 'running' }, { status: 'waiting' }]);

    const forced = await runCli(['runs', 'delete', 'live0', 'wait0', toolRun.run_id, '--force'], world.env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toBe(`Deleted run live00000001.\nDeleted run wait00000001.\nDeleted run ${toolRun.run_id} and its log ${toolRun.log_file}.\n`);
    expect(await withStore(async (store, gone) => (await store.runs.list()).map((run) => run.id).filter((id) => gone.includes(id)), ['live00000001', 'wait00000001', toolRun.run_id])).toEqual([]);
    expect(await exists(toolRun.log_file!)).toBe(false);
  }, 60_000);
});
