import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Library from '../src/library/index.js';
import type * as Testing from '../src/library/testing.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const TASK = "How many words are in 'to be or not to be'?";

/**
 * Forge as a library, from the built package: `forge-agent`, `forge-agent/tools` and `forge-agent/testing`
 * resolve (by package name, through the package's own `exports`) to dist/ with their type declarations,
 * and examples/library-agent.ts type-checks against them and runs with aimock as its model.
 */
describe('Forge as a library', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: TASK, hasToolResult: false }, { toolCalls: [{ id: 'call_count', name: 'word_count', arguments: { text: 'to be or not to be' } }] });
    world.mock.on({ toolCallId: 'call_count' }, { content: "'to be or not to be' has 6 words." });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('resolves each entry point by package name to the built JavaScript and its declarations', async () => {
    const script = "for (const name of ['forge-agent', 'forge-agent/tools', 'forge-agent/testing']) console.log(import.meta.resolve(name));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(root, 'examples') });
    expect(stdout.trim().split('\n').map((url) => path.relative(root, fileURLToPath(url)))).toEqual(['dist/library/index.js', 'dist/library/tools.js', 'dist/library/testing.js']);

    const library = (await import(path.join(root, 'dist/library/index.js'))) as Record<string, unknown>;
    const tools = (await import(path.join(root, 'dist/library/tools.js'))) as Record<string, unknown>;
    const testing = (await import(path.join(root, 'dist/library/testing.js'))) as Record<string, unknown>;
    for (const name of ['createRuntime', 'openRuntime', 'runTask', 'resumeTask', 'runSkill', 'runTaskWithSkills', 'callTool', 'answerApproval', 'ForgeError']) expect(typeof library[name], name).toBe('function');
    expect(typeof tools['defineTool']).toBe('function');
    for (const name of ['cassetteModel', 'createCassettePlayer', 'readCassette', 'startFixtureWorld']) expect(typeof testing[name], name).toBe('function');
  });

  it('type-checks the example against the built declarations', async () => {
    await expect(run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'examples/tsconfig.json'], { cwd: root })).resolves.toMatchObject({ stdout: '' });
  }, 120_000);

  it('runs the example: an agent run with its own tool, the run saved and replayed with no model call, a direct tool call', async () => {
    const env = { ...world.env, HOME: world.home, FORGE_MODEL: 'openai:gpt-4.1-mini' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/library-agent.ts', TASK], { cwd: root, env });
    const report = JSON.parse(stdout) as Record<string, Record<string, unknown>>;
    expect(report['run']).toMatchObject({ status: 'completed', answer: "'to be or not to be' has 6 words.", llm_calls: 2, tools: ['word_count'] });
    expect(report['skill']).toEqual({ name: 'count-words', version: 1, input: 'topic' });
    expect(report['replay']).toMatchObject({ status: 'completed', mode: 'deterministic', llm_calls: 0 });
    // The replay's step output is readable JSON: compared by content, not layout.
    expect(JSON.parse(String(report['replay']!['output']))).toEqual({ words: 4 });
    expect(report['call']).toEqual({ ok: true, output: '{"words":3}' });
    // The model was asked twice, by the agent run only.
    expect(requestsMentioning(world.mock, TASK)).toHaveLength(2);
  }, 120_000);

  it('plays a recorded session through forge-agent/testing: a cassette as the model, the fixture world as the web', async () => {
    const { createRuntime, loadConfig, runTask } = (await import(path.join(root, 'dist/library/index.js'))) as typeof Library;
    const { cassetteModel, readCassette, startFixtureWorld, worldTask } = (await import(path.join(root, 'dist/library/testing.js'))) as typeof Testing;
    const fixtureWorld = await startFixtureWorld();
    const home = path.join(world.home, 'cassette');
    const runtime = await createRuntime({
      config: loadConfig({ FORGE_HOME: home, HOME: home, FORGE_ALLOW_HOSTS: fixtureWorld.allowHosts, FORGE_RESOLVE: fixtureWorld.resolve, FORGE_SEARCH: 'searxng', FORGE_SEARXNG_URL: fixtureWorld.searchUrl }),
    });
    try {
      const model = cassetteModel(readCassette(path.join(root, 'src/demo/demo-cassette.json')), { slug: 'cassette:demo-session', substitutions: { port: `:${fixtureWorld.port}` } });
      const result = await runTask(runtime, { task: worldTask('lumen'), model });
      expect(result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', llm_calls: 3 });
      expect(result.steps.map((step) => step.tool)).toEqual(['web_search', 'read_url']);
      expect(fixtureWorld.requests.length).toBeGreaterThan(0);
    } finally {
      await runtime.close();
      await fixtureWorld.close();
    }
  });
});
