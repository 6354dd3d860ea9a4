import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeClient } from '../src/client/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';
const TASK = 'What is the latest forge version?';
const DELIMITER = /untrusted-content/i;

/**
 * Issue 29 defect 4: the untrusted-content boundary is for the model only. A skill replay answers with
 * the recording's answer bound to this replay's values, and no human-facing output (the CLI's `skill
 * run` text and `--json`, `tools call`, `runs show`, the API's run view) shows a boundary tag; tool
 * results are pretty-printed, not JSON-escaped.
 */
describe('what people read of tool results and replay answers', () => {
  let world: EngineWorld;
  let skillRun: { stdout: string; stderr: string; code: number | null };
  let skillJson: Record<string, unknown>;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: TASK, hasToolResult: false }, { toolCalls: [{ id: 'versions_1', name: 'http_request', arguments: { method: 'GET', url: world.web.pages.json } }] });
    world.mock.on({ toolCallId: 'versions_1' }, { content: 'The latest forge version is 0.3.2.' });
    const ran = await runCli(['run', '--json', '--model', MODEL, TASK], world.env);
    expect(ran.code, ran.stderr).toBe(0);
    const runId = (JSON.parse(ran.stdout) as { run_id: string }).run_id;
    const saved = await runCli(['skill', 'save', runId, '--name', 'latest-version', '--json'], world.env);
    expect(saved.code, saved.stderr).toBe(0);
    skillRun = await runCli(['skill', 'run', 'latest-version', '--no-tui'], world.env);
    const json = await runCli(['skill', 'run', 'latest-version', '--json'], world.env);
    expect(json.code, json.stderr).toBe(0);
    skillJson = JSON.parse(json.stdout) as Record<string, unknown>;
  }, 90_000);
  afterAll(async () => {
    await world?.close();
  });

  it('forge skill run prints the recorded answer bound to the fresh value, with no boundary tag', () => {
    expect(skillRun.code, skillRun.stderr).toBe(0);
    expect(skillRun.stdout).toBe('The latest forge version is 0.3.2.\n');
    expect(skillRun.stdout + skillRun.stderr).not.toMatch(DELIMITER);
  });

  it('forge skill run --json reports the answer, where it came from and its values, and no step output holds a boundary tag', () => {
    expect(skillJson).toMatchObject({ status: 'completed', llm_calls: 0, answer: 'The latest forge version is 0.3.2.', answer_source: 'template', outputs: { latest: '0.3.2' } });
    expect(JSON.stringify(skillJson)).not.toMatch(DELIMITER);
  });

  it('forge tools call and forge runs show print the result pretty-printed, without the boundary', async () => {
    const called = await runCli(['tools', 'call', 'http_request', '--input', JSON.stringify({ method: 'GET', url: world.web.pages.json })], world.env);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).not.toMatch(DELIMITER);
    expect(called.stdout).toContain('"latest": "0.3.2"');
    const calledJson = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify({ method: 'GET', url: world.web.pages.json })], world.env);
    expect(calledJson.stdout).not.toMatch(DELIMITER);
    const shown = await runCli(['runs', 'show', String(skillJson['run_id'])], world.env);
    expect(shown.stdout).toContain('answer     The latest forge version is 0.3.2.');
    expect(shown.stdout).toMatch(/steps {6}\d+\n {3}1\. ✓ /);
    expect(shown.stdout).not.toMatch(DELIMITER);
    const shownJson = JSON.parse((await runCli(['runs', 'show', String(skillJson['run_id']), '--json'], world.env)).stdout) as { steps: { output: string | null }[] };
    expect(shownJson.steps.length).toBeGreaterThan(0);
    expect(JSON.stringify(shownJson.steps)).not.toMatch(DELIMITER);
    const listed = await runCli(['runs', 'list', '--json'], world.env);
    expect(listed.stdout).not.toMatch(DELIMITER);
  }, 30_000);

  it('the API run view of every run (replays and direct tool calls) answers without the boundary', async () => {
    let runtime: ForgeRuntime | undefined;
    let server: ApiServer | undefined;
    try {
      runtime = await openRuntime(world.env, world.home, { mcp: { startupWaitMs: 0 } });
      server = await serveApi(runtime, { port: 0 });
      const client = new ForgeClient({ baseUrl: server.listener.origin });
      const runs = await runtime.runs.list({ limit: 20 });
      expect(runs.map((run) => run.kind)).toEqual(expect.arrayContaining(['skill', 'tool-call', 'agent']));
      for (const run of runs) {
        const view = await client.getRun(run.id);
        expect(JSON.stringify(view), run.kind).not.toMatch(DELIMITER);
      }
    } finally {
      await server?.close();
      await runtime?.close();
    }
  });
});
