import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, ForgeEvent } from '../src/core/index.js';
import { openRuntime, runTask, type ForgeRuntime, type RunTaskResult } from '../src/compose/index.js';
import { checkConvergence } from '../src/synthesis/converge/index.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { assistantTurns, firstUser, scriptAgent, scriptSynthesis, toolNames, usage } from './support/synthesis-script.js';
import { countLinksBuggyTool, countLinksShapeOnlyTest, countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';
import { inputJsonSchemaFromSignature } from '../src/synthesis/pipeline/index.js';
import { aggregateTotals, totalsFromEvents } from '../src/runs/run-log/index.js';
import { viewStateFromEvents } from '../src/cli/tui/index.js';

function ofType<K extends ForgeEvent['type']>(events: readonly ForgeEvent[], type: K): EventOf<K>[] {
  return events.filter((event): event is EventOf<K> => event.type === type);
}

describe('checkConvergence: the halt rule', () => {
  const idle = { toolboxChanged: false, planMutated: false, toolUsed: false };
  it('counts stable turns and converges only from turn 2 once the streak reaches max(1, unfinished)', () => {
    expect(checkConvergence({ stableStreak: 0 }, 1, idle, 0)).toEqual({ stable: true, stableStreak: 1, threshold: 1, converged: false });
    expect(checkConvergence({ stableStreak: 1 }, 2, idle, 0)).toEqual({ stable: true, stableStreak: 2, threshold: 1, converged: true });
    expect(checkConvergence({ stableStreak: 1 }, 3, idle, 3)).toMatchObject({ stableStreak: 2, threshold: 3, converged: false });
    expect(checkConvergence({ stableStreak: 2 }, 4, idle, 3)).toMatchObject({ stableStreak: 3, converged: true });
  });
  it('resets the streak on any synthesis, plan edit or domain tool call', () => {
    for (const change of [{ toolboxChanged: true }, { planMutated: true }, { toolUsed: true }]) {
      expect(checkConvergence({ stableStreak: 5 }, 9, { ...idle, ...change }, 0)).toEqual({ stable: false, stableStreak: 0, threshold: 1, converged: false });
    }
  });
});

describe('forge run --converge with aimock as agent, author and tester', () => {
  let world: EngineWorld;
  let runtime: ForgeRuntime;
  let events: ForgeEvent[];
  let expected: { article: number; spam: number };
  let goodTest: string;

  beforeAll(async () => {
    world = await startEngineWorld();
    runtime = await openRuntime({ ...world.env, FORGE_MODEL: 'openai:agent-model', FORGE_TEST_MODEL: 'openai:tester-model' }, world.home, { mcp: { startupWaitMs: 0 } });
    events = [];
    runtime.bus.subscribe((event) => events.push(event));
    const [article, spam] = await Promise.all([world.web.pages.article, world.web.pages.spam].map(async (url) => linkCount((await runtime.fetch(url)).text())));
    expected = { article: article!, spam: spam! };
    goodTest = countLinksTest([{ url: world.web.pages.article, links: article! }, { url: world.web.pages.spam, links: spam! }]);
  });
  afterAll(async () => {
    await runtime.close();
    await world.close();
  });

  async function converge(task: string, options: { fresh?: boolean; maxIterations?: number } = {}): Promise<{ result: RunTaskResult; events: ForgeEvent[] }> {
    const before = events.length;
    const result = await runTask(runtime, { task, converge: true, toolbox: options.fresh === true ? 'fresh' : 'keep', maxRetries: 0, ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }) });
    return { result, events: events.slice(before).filter((event) => event.run_id === result.run_id) };
  }

  it('synthesizes a missing tool (buggy draft caught, revised, promoted), uses it, answers; a --keep run reuses it with zero syntheses', async () => {
    const request = { name: 'count_links', purpose: 'SYNTH-OK: count the links (<a href>) on an HTML page', signature: 'count_links({url: string}) -> {url: string, count: number}' };
    scriptSynthesis(world.mock, 'SYNTH-OK', { tool: (revision) => (revision === 0 ? countLinksBuggyTool : countLinksTool), test: () => goodTest });
    scriptAgent(world.mock, 'RUN-ONE', (turn) =>
      [
        { name: 'update_plan', arguments: { steps: [{ id: 's1', title: 'Get a link counter', status: 'in_progress' }, { id: 's2', title: 'Count the links', status: 'pending' }] } },
        { name: 'request_tool', arguments: request },
        { name: 'count_links', arguments: { url: world.web.pages.article } },
        { name: 'final_answer', arguments: { answer: `The page has ${expected.article} links.` } },
      ][turn]!,
    );
    const first = await converge(`RUN-ONE: count the links on ${world.web.pages.article}`, { fresh: true });
    expect(first.result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', answer: `The page has ${expected.article} links.` });
    expect(first.result.warnings).toEqual([]);
    expect(ofType(first.events, 'toolbox-change').map((event) => `${event.status}:${event.revisions}`)).toEqual(['draft:0', 'testing:0', 'draft:1', 'testing:1', 'promoted:1']);
    const [failure] = ofType(first.events, 'verification-failed');
    expect(failure).toMatchObject({ tool: 'count_links', revision: 0 });
    // The author is told what the test checked and the values it compared.
    expect(failure!.output).toContain(`assert.equal failed: counts every link on ${world.web.pages.article} (got ${expected.article - 1}, expected ${expected.article})`);
    const purposes = ofType(first.events, 'model-call').map((event) => `${event.model}:${event.purpose}`);
    expect(purposes).toEqual([
      'openai:agent-model:agent-step',
      'openai:agent-model:agent-step',
      'openai:agent-model:tool-author',
      'openai:tester-model:tool-test',
      'openai:agent-model:tool-author',
      'openai:agent-model:agent-step',
      'openai:agent-model:agent-step',
    ]);
    const [synthesis] = ofType(first.events, 'synthesis-end');
    expect(synthesis).toMatchObject({ tool: 'count_links', status: 'promoted', revisions: 1, llm_calls: 3, tokens: { input: 800, output: 420 }, flagged: false });
    const used = ofType(first.events, 'tool-result').find((event) => event.tool === 'count_links');
    expect(used?.output).toContain(`"count":${expected.article}`);
    expect(await runtime.toolbox.get('count_links')).toMatchObject({ status: 'promoted', revisions: 1, uses: 1, capabilities_used: ['fetch'] });
    // The model-facing schema comes from the declared signature, not from the author's meta.input (which describes url differently).
    expect((await runtime.toolbox.get('count_links'))?.input_schema).toEqual(inputJsonSchemaFromSignature(request.signature));
    expect(JSON.stringify(runtime.registry.specification('count_links')?.inputSchema)).not.toContain('http(s) URL of the page');
    // The tester never saw the tool's source: its only conversation is the contract.
    const testerRequests = world.mock.getRequests().filter((entry) => JSON.stringify(entry.body).includes('submit_test'));
    expect(testerRequests.length).toBe(1);
    expect(JSON.stringify(testerRequests[0]!.body)).not.toContain('forge.fetch(input.url)');
    // The terminal UI, fed this real synthesis run, shows what happened: the tool promoted after one revision and used once.
    const view = viewStateFromEvents(first.events);
    expect(view.toolbox.find((tool) => tool.name === 'count_links')).toEqual({ name: 'count_links', status: 'promoted', revisions: 1, uses: 1 });
    expect(view.plan.map((step) => step.id)).toEqual(['s1', 's2']);
    expect(view.totals).toMatchObject({ modelCalls: purposes.length, failedModelCalls: 0 });
    expect(view.end).toMatchObject({ halt_reason: 'final_answer' });

    scriptAgent(world.mock, 'RUN-TWO', (turn) =>
      [{ name: 'count_links', arguments: { url: world.web.pages.spam } }, { name: 'final_answer', arguments: { answer: `${expected.spam} links.` } }][turn]!,
    );
    const second = await converge(`RUN-TWO: count the links on ${world.web.pages.spam}`);
    expect(second.result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', llm_calls: 2 });
    expect(ofType(second.events, 'synthesis-end')).toEqual([]);
    expect(ofType(second.events, 'toolbox-change')).toEqual([]);
    expect(ofType(second.events, 'tool-call-start').filter((event) => event.tool === 'request_tool')).toEqual([]);
    expect(ofType(second.events, 'tool-result').find((event) => event.tool === 'count_links')?.output).toContain(`"count":${expected.spam}`);
    expect((await runtime.toolbox.get('count_links'))?.uses).toBe(2);

    // forge stats across both runs: the gate caught the buggy draft, and the one synthesis served two uses.
    const stats = aggregateTotals([totalsFromEvents(first.events), totalsFromEvents(second.events)]);
    expect(stats.halts_by_reason).toEqual({ final_answer: 2 });
    expect(stats.synthesis).toMatchObject({ drafted: 1, promoted: 1, failed: 0, caught: 1, catch_rate: 1, tool_uses: 2, reuse_ratio: 2 });
    expect(stats.synthesis.per_tool['count_links']).toMatchObject({ status: 'promoted', llm_calls: 3, tokens: { input: 800, output: 420 } });
    expect(Object.keys(stats.per_model).sort()).toEqual(['openai:agent-model', 'openai:tester-model']);
    expect(stats.per_model['openai:tester-model']!.llm_calls).toBe(1);
  });

  it('rejects a test that passes a stub and has the tester rewrite it before promotion', async () => {
    const request = { name: 'count_links_b', purpose: 'SYNTH-STUB: count the links on an HTML page', signature: 'count_links_b({url: string}) -> {count: number}' };
    const renamed = (source: string) => source.replace(`name: 'count_links'`, `name: 'count_links_b'`);
    scriptSynthesis(world.mock, 'SYNTH-STUB', { tool: () => renamed(countLinksTool), test: (revision) => (revision === 0 ? countLinksShapeOnlyTest(world.web.pages.article) : goodTest) });
    scriptAgent(world.mock, 'RUN-STUB', (turn) => [{ name: 'request_tool', arguments: request }, { name: 'final_answer', arguments: { answer: 'done' } }][turn]!);
    const { result, events: run } = await converge('RUN-STUB: get a link counter');
    expect(result.halt_reason).toBe('final_answer');
    const [rejection] = ofType(run, 'verification-failed');
    expect(rejection!.output).toMatch(/the test was rejected/);
    expect(rejection!.output).toMatch(/also passed against .*a stub that always returns \{\}/);
    const purposes = ofType(run, 'model-call').map((event) => event.purpose);
    expect(purposes.filter((purpose) => purpose === 'tool-test')).toHaveLength(2);
    expect(purposes.filter((purpose) => purpose === 'tool-author')).toHaveLength(1);
    expect(await runtime.toolbox.get('count_links_b')).toMatchObject({ status: 'promoted', revisions: 1 });
  });

  it('marks a tool whose test never passes failed after 3 revisions, flags it loudly, keeps it listed and not callable', async () => {
    const request = { name: 'count_links_c', purpose: 'SYNTH-FAIL: count the links on an HTML page', signature: 'count_links_c({url: string}) -> {count: number}' };
    scriptSynthesis(world.mock, 'SYNTH-FAIL', { tool: () => countLinksBuggyTool.replace(`name: 'count_links'`, `name: 'count_links_c'`), test: () => goodTest });
    scriptAgent(world.mock, 'RUN-FAIL', (turn) =>
      [
        { name: 'request_tool', arguments: request },
        { name: 'count_links_c', arguments: { url: world.web.pages.article } },
        { name: 'final_answer', arguments: { answer: 'no counter available' } },
      ][turn]!,
    );
    const { result, events: run } = await converge('RUN-FAIL: get a link counter');
    expect(ofType(run, 'verification-failed').map((event) => event.revision)).toEqual([0, 1, 2, 3]);
    expect(ofType(run, 'model-call').filter((event) => event.purpose === 'tool-author')).toHaveLength(4);
    expect(ofType(run, 'synthesis-end')[0]).toMatchObject({ tool: 'count_links_c', status: 'failed', revisions: 3, flagged: true, llm_calls: 5 });
    expect(result.warnings).toEqual(['synthesis of count_links_c failed after 3 revisions']);
    expect(ofType(run, 'run-end')[0]!.warnings).toEqual(['synthesis of count_links_c failed after 3 revisions']);
    const refused = ofType(run, 'tool-error').find((event) => event.call_id.endsWith('_1'));
    expect(refused?.error.name).toBe('ToolNotFoundError');
    expect(runtime.registry.get('count_links_c')).toBeUndefined();
    expect(await runtime.toolbox.get('count_links_c')).toMatchObject({ status: 'failed', revisions: 3 });
    expect((await runtime.toolbox.get('count_links_c'))!.failures.join('\n')).toMatch(/assert\.equal failed/);
  });

  it('converges without final_answer once nothing changes, waiting max(1, unfinished) stable turns', async () => {
    const plan = [{ id: 's1', title: 'Look around', status: 'pending' }, { id: 's2', title: 'Decide', status: 'pending' }];
    scriptAgent(world.mock, 'RUN-SETTLE', () => ({ name: 'update_plan', arguments: { steps: plan } }));
    const { result, events: run } = await converge('RUN-SETTLE: think about it');
    expect(result).toMatchObject({ status: 'completed', halt_reason: 'converged', answer: null, llm_calls: 3, warnings: [] });
    expect(ofType(run, 'convergence-check').map((event) => [event.turn, event.plan_stable, event.stable_streak, event.threshold])).toEqual([
      [1, false, 0, 2],
      [2, true, 1, 2],
      [3, true, 2, 2],
    ]);
    expect(ofType(run, 'plan-update')).toHaveLength(1);
    // The state block is re-sent after every turn.
    const lastAgentRequest = world.mock.getRequests().filter((entry) => JSON.stringify(entry.body).includes('RUN-SETTLE')).at(-1)!;
    expect(JSON.stringify(lastAgentRequest.body).match(/<forge-state turn=/g)).toHaveLength(3);
    expect(JSON.stringify(lastAgentRequest.body)).toContain('"tool_choice":"required"');
  });

  it('halts at the turn cap when the agent keeps changing things, and flags it', async () => {
    scriptAgent(world.mock, 'RUN-CAP', (turn) => ({ name: 'update_plan', arguments: { steps: [{ id: 's1', title: `Attempt ${turn}`, status: 'in_progress' }] } }));
    const { result, events: run } = await converge('RUN-CAP: never settle', { maxIterations: 3 });
    expect(result).toMatchObject({ status: 'failed', halt_reason: 'cap', llm_calls: 3 });
    expect(result.error?.name).toBe('TurnCapReached');
    expect(result.warnings).toEqual(['halted by the turn cap (3) without converging']);
    expect(ofType(run, 'run-end')[0]).toMatchObject({ halt_reason: 'cap', warnings: ['halted by the turn cap (3) without converging'] });
    expect(ofType(run, 'convergence-check').every((event) => event.stable_streak === 0)).toBe(true);
  });

  it('runs only the first call when a model sends several in one turn', async () => {
    world.mock.on({ predicate: (request) => toolNames(request).includes('final_answer') && firstUser(request).includes('RUN-PAIR') && assistantTurns(request) === 0 }, {
      toolCalls: [
        { id: 'two_a', name: 'final_answer', arguments: { answer: 'first' } },
        { id: 'two_b', name: 'final_answer', arguments: { answer: 'second' } },
      ],
      usage,
    });
    const { result, events: run } = await converge('RUN-PAIR: answer');
    expect(result).toMatchObject({ halt_reason: 'final_answer', answer: 'first' });
    expect(ofType(run, 'tool-call-start').map((event) => event.call_id)).toEqual(['two_a']);
  });
});
