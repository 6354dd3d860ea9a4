import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { countLinksBuggyTool, countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { scriptAgent, scriptSynthesis } from './support/synthesis-script.js';

/** `forge run --converge`, `forge tools list` and `forge stats` through the built binary, aimock playing every model. */
describe('the self-extending toolbox from the command line', () => {
  let world: EngineWorld;
  let env: Record<string, string>;
  let links: { article: number; spam: number };

  beforeAll(async () => {
    world = await startEngineWorld();
    env = { ...world.env, FORGE_MODEL: 'openai:agent-model', FORGE_TEST_MODEL: 'openai:tester-model' };
    const fetch = createGuardedFetch({ allowHosts: parseAllowHosts(world.env['FORGE_ALLOW_HOSTS']!), resolve: parseResolveEntries(world.web.resolveEntries) });
    const [article, spam] = await Promise.all([world.web.pages.article, world.web.pages.spam].map(async (url) => linkCount((await fetch(url)).text())));
    links = { article: article!, spam: spam! };
    const test = countLinksTest([
      { url: world.web.pages.article, links: links.article },
      { url: world.web.pages.spam, links: links.spam },
    ]);
    scriptSynthesis(world.mock, 'CLI-SYNTH', { tool: (revision) => (revision === 0 ? countLinksBuggyTool : countLinksTool), test: () => test });
    scriptAgent(world.mock, 'CLI-ONE', (turn) =>
      [
        { name: 'request_tool', arguments: { name: 'count_links', purpose: 'CLI-SYNTH: count the links on a page', signature: 'count_links({url: string}) -> {count: number}' } },
        { name: 'count_links', arguments: { url: world.web.pages.article } },
        { name: 'final_answer', arguments: { answer: `${links.article} links` } },
      ][turn]!,
    );
    scriptAgent(world.mock, 'CLI-TWO', (turn) =>
      [
        { name: 'count_links', arguments: { url: world.web.pages.spam } },
        { name: 'final_answer', arguments: { answer: `${links.spam} links` } },
      ][turn]!,
    );
  });
  afterAll(async () => {
    await world?.close();
  });

  it('synthesizes, promotes and uses a tool, reuses it in a later run, and reports the figures in forge stats', async () => {
    const first = await runCli(['run', '--converge', '--fresh', '--json', `CLI-ONE: count the links on ${world.web.pages.article}`], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'completed', halt_reason: 'final_answer', answer: `${links.article} links`, llm_calls: 6 });

    const listed = JSON.parse((await runCli(['tools', 'list', '--json'], env)).stdout) as { tools: { name: string }[]; toolbox: Record<string, unknown>[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('count_links');
    expect(listed.toolbox).toEqual([expect.objectContaining({ name: 'count_links', status: 'promoted', origin: 'synthesized', revisions: 1, uses: 1 })]);

    const second = await runCli(['run', '--converge', '--json', `CLI-TWO: count the links on ${world.web.pages.spam}`], env);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'completed', halt_reason: 'final_answer', answer: `${links.spam} links`, llm_calls: 2 });

    const stats = JSON.parse((await runCli(['stats', '--all', '--json'], env)).stdout) as Record<string, unknown>;
    expect(stats).toMatchObject({
      runs: 2,
      halts_by_reason: { final_answer: 2 },
      synthesis: { drafted: 1, promoted: 1, failed: 0, caught: 1, catch_rate: 1, tool_uses: 2, reuse_ratio: 2 },
    });
    expect(Object.keys(stats['per_model'] as object).sort()).toEqual(['openai:agent-model', 'openai:tester-model']);
    expect((stats['synthesis'] as { per_tool: Record<string, unknown> }).per_tool['count_links']).toMatchObject({ llm_calls: 3, status: 'promoted' });

    const fresh = await runCli(['run', '--converge', '--fresh', '--json', `CLI-TWO: count the links on ${world.web.pages.spam}`], env);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ status: 'completed' });
    const wiped = JSON.parse((await runCli(['tools', 'list', '--json'], env)).stdout) as { toolbox: unknown[] };
    expect(wiped.toolbox).toEqual([]);
  });
});
