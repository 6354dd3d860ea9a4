/**
 * Records the model session `forge demo --toolbox` plays back (src/demo/toolbox-demo-cassette.json).
 * The session is SCRIPTED, not a live model: aimock answers as the agent, the tool author and the tester,
 * and the author's first draft carries a planted off-by-one, so the gate has a real bug to catch. Everything
 * else is real and runs while recording: the fixture world, the sandbox, the verification against the
 * stubs, the promotion and the reuse. Re-record after changing what the models are asked:
 *
 *   npx tsx scripts/record-toolbox-demo.ts
 */
import { LLMock } from '@copilotkit/aimock';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureWorld, topicOf, toolboxDemoTask, toolboxDemoTopics } from '../src/demo/index.js';
import { createCassetteRecorder, resolveModel } from '../src/llm/index.js';
import { openRuntime, runTask } from '../src/compose/index.js';
import { scriptAgent, scriptSynthesis } from '../test/support/synthesis-script.js';

const meta = `export const meta = {
  name: 'release_version',
  description: 'Reads a release notes page and returns the version it announces.',
  input: { type: 'object', properties: { url: { type: 'string', description: 'http(s) URL of the release notes page' } }, required: ['url'] },
  capabilities: ['fetch'],
};`;
/** The author's first draft: its pattern stops after major.minor, so "4.2.0" comes back as "4.2". */
const firstDraft = `${meta}
export default async function run(input, forge) {
  const page = await forge.fetch(input.url);
  const heading = (await page.text()).match(/<h1>([^<]*)<[/]h1>/);
  const version = heading ? heading[1].match(/[0-9]+[.][0-9]+/) : null;
  return { url: page.url, version: version ? version[0] : null };
}`;
/** The revision, after the test's failure output: the whole semantic version. */
const revision = `${meta}
export default async function run(input, forge) {
  const page = await forge.fetch(input.url);
  const heading = (await page.text()).match(/<h1>([^<]*)<[/]h1>/);
  const version = heading ? heading[1].match(/[0-9]+[.][0-9]+[.][0-9]+/) : null;
  return { url: page.url, version: version ? version[0] : null };
}`;
/** The tester's test, from the contract alone: exact versions on two pages, so constants and echoes fail. */
function versionTest(pages: readonly { url: string; version: string }[]): string {
  const cases = pages.map((page) => `  {
    const result = await tool({ url: ${JSON.stringify(page.url)} });
    assert.ok(result && typeof result === 'object', 'returns an object');
    assert.equal(result.version, ${JSON.stringify(page.version)}, 'reads the full version from ${page.url}');
  }`);
  return `export default async function test(tool, assert) {\n${cases.join('\n')}\n}`;
}

const cassetteFile = fileURLToPath(new URL('../src/demo/toolbox-demo-cassette.json', import.meta.url));
const slug = 'openai:gpt-4.1-mini';

const world = await startFixtureWorld();
const mock = new LLMock({ port: 0, host: '127.0.0.1' });
await mock.start();
const home = await mkdtemp(path.join(tmpdir(), 'forge-record-toolbox-demo-'));
try {
  const env = { FORGE_HOME: home, FORGE_ALLOW_HOSTS: world.allowHosts, FORGE_RESOLVE: world.resolve, OPENAI_API_KEY: 'scripted', OPENAI_BASE_URL: `${mock.url}/v1` };
  const runtime = await openRuntime(env, home, { mcp: { startupWaitMs: 0 } });
  try {
    const [first, second] = toolboxDemoTopics;
    const pages = [first, second].map((topic) => ({ url: world.officialUrl(topic), version: topicOf(topic)!.version }));
    scriptSynthesis(mock, 'release notes page', { tool: (turn) => (turn === 0 ? firstDraft : revision), test: () => versionTest(pages) });
    scriptAgent(mock, `latest ${first} release`, (turn) =>
      [
        {
          name: 'request_tool',
          arguments: { name: 'release_version', purpose: 'Read the version a release notes page announces', signature: 'release_version({url: string}) -> {url: string, version: string}' },
        },
        { name: 'release_version', arguments: { url: pages[0]!.url } },
        { name: 'final_answer', arguments: { answer: `The latest ${first} release is ${pages[0]!.version}.` } },
      ][turn]!,
    );
    scriptAgent(mock, `latest ${second} release`, (turn) =>
      [
        { name: 'release_version', arguments: { url: pages[1]!.url } },
        { name: 'final_answer', arguments: { answer: `The latest ${second} release is ${pages[1]!.version}.` } },
      ][turn]!,
    );

    const recorder = createCassetteRecorder(resolveModel(slug, env).model, slug, cassetteFile, { port: `:${world.port}` });
    const model = { slug, provider: 'openai' as const, model: recorder };
    for (const [index, topic] of toolboxDemoTopics.entries()) {
      const result = await runTask(runtime, { task: toolboxDemoTask(topic, world.officialUrl(topic)), model, converge: true, toolbox: index === 0 ? 'fresh' : 'keep', maxRetries: 0 });
      process.stdout.write(`${topic}: ${result.status} (${result.halt_reason}) ${result.answer ?? result.error?.message}\n`);
      if (result.status !== 'completed') process.exitCode = 1;
    }
    process.stdout.write(`recorded ${cassetteFile}\n`);
  } finally {
    await runtime.close();
  }
} finally {
  await mock.stop();
  await world.close();
  await rm(home, { recursive: true, force: true });
}
