import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnknownToolsError, defineTool, type EventOf, type ForgeEvent } from '../src/core/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';
import { parseSkillDocument } from '../src/skills/index.js';
import { callTool, openRuntime, runSkill, runTask, type ForgeRuntime, type RunTaskResult, type RuntimeOptions } from '../src/compose/index.js';
import { startFixtureMcpServer, type FixtureMcpServer, type FixtureTool } from './fixtures/mcp/fixture-mcp-server.js';
import { countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { assistantTurns, firstUser, scriptAgent, scriptSynthesis, usage, type MockRequest } from './support/synthesis-script.js';

const model = 'openai:gpt-4.1-mini';

/** The tool names a request offered the model, as aimock received them. */
function offeredTools(body: unknown): string[] {
  return ((body as { tools?: Array<{ function: { name: string } }> } | null)?.tools ?? []).map((tool) => tool.function.name);
}

/** What aimock received for the run whose task contains `marker`, oldest first. */
function requestsOf(mock: LLMock, marker: string): unknown[] {
  return mock
    .getRequests()
    .filter((request) => JSON.stringify(request.body).includes(marker))
    .map((request) => request.body);
}

function ofType<K extends ForgeEvent['type']>(events: readonly ForgeEvent[], type: K): EventOf<K>[] {
  return events.filter((event): event is EventOf<K> => event.type === type);
}

/** A promise and the function that settles it, for tools that must wait for something another run does. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The run's stored events, checked against its run log: complete, dense, opened and closed. */
async function completeEvents(runtime: ForgeRuntime, result: RunTaskResult): Promise<ForgeEvent[]> {
  const stored = await runtime.store.events.list(result.run_id);
  const log = await readRunLog(result.log_file);
  expect(log.error).toBeUndefined();
  expect(stored).toEqual(log.events);
  expect(stored.map((event) => event.seq)).toEqual(stored.map((_, index) => index));
  expect(stored[0]?.type).toBe('run-start');
  expect(stored.at(-1)).toMatchObject({ type: 'run-end', status: result.status });
  expect(stored.filter((event) => event.type === 'run-end')).toHaveLength(1);
  return stored;
}

describe('per-run tool sets over one catalog', () => {
  let world: EngineWorld;
  const homes: string[] = [];
  const runtimes: ForgeRuntime[] = [];

  beforeAll(async () => {
    world = await startEngineWorld();
  });
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.close();
  });
  afterAll(async () => {
    for (const home of homes) await rm(home, { recursive: true, force: true });
    await world.close();
  });

  /** A runtime on a FORGE_HOME of its own, so each test starts from an empty toolbox. */
  async function open(env: Record<string, string> = {}, options: RuntimeOptions = { mcp: { startupWaitMs: 0 } }): Promise<ForgeRuntime> {
    const home = await mkdtemp(path.join(tmpdir(), 'forge-tool-sets-'));
    homes.push(home);
    const runtime = await openRuntime({ ...world.env, FORGE_HOME: home, ...env }, home, options);
    runtimes.push(runtime);
    return runtime;
  }

  it('runs 20 runs at once on one runtime, each seeing and calling exactly its own tools', async () => {
    const runtime = await open();
    const count = 20;
    const label = (index: number) => String(index).padStart(2, '0');
    const probe = (index: number) => `probe_${label(index)}`;
    const marker = (index: number) => `TOOLSET-CONCURRENT run ${label(index)}:`;
    const executions = new Map<string, string[]>();
    const started = new Set<string>();
    const allStarted = signal();
    runtime.bus.subscribe((event) => {
      if (event.type !== 'run-start' || !event.task.startsWith('TOOLSET-CONCURRENT')) return;
      started.add(event.run_id);
      if (started.size === count) allStarted.resolve();
    });
    for (let index = 0; index < count; index += 1) {
      runtime.registry.register(
        defineTool({
          name: probe(index),
          description: `Probe ${label(index)}.`,
          inputSchema: z.object({ n: z.number().int() }),
          risk: 'low',
          sideEffect: 'read',
          async execute({ n }, context) {
            executions.set(probe(index), [...(executions.get(probe(index)) ?? []), context.runId]);
            // No run's tool finishes before every run has taken its set; then the catalog gains a tool none of them may see.
            await allStarted.promise;
            if (runtime.registry.get('late_probe') === undefined) runtime.registry.register(defineTool({ name: 'late_probe', description: 'Registered mid-run.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => 'late' }));
            return { probe: probe(index), n };
          },
        }),
      );
    }
    const catalogAtStart = runtime.registry.names();
    // The last run takes the whole catalog; every other one only its own probe. Each model also asks for its neighbour's probe.
    const expectedTools = (index: number) => (index === count - 1 ? catalogAtStart : [probe(index)]);
    world.mock.on(
      { predicate: (request) => firstUser(request).includes('TOOLSET-CONCURRENT') },
      (request: MockRequest) => {
        const index = Number(/TOOLSET-CONCURRENT run (\d\d):/.exec(firstUser(request))![1]);
        if (assistantTurns(request) > 0) return { content: `run ${label(index)} done`, usage };
        const foreign = index === count - 1 ? [] : [{ id: `foreign_${label(index)}`, name: probe((index + 1) % count), arguments: JSON.stringify({ n: -1 }) }];
        return { toolCalls: [{ id: `own_${label(index)}`, name: probe(index), arguments: JSON.stringify({ n: index }) }, ...foreign], usage };
      },
      { latency: 20 },
    );

    const results = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        runTask(runtime, { task: `${marker(index)} call your probe`, model, maxRetries: 0, ...(index === count - 1 ? {} : { tools: [probe(index)] }) }),
      ),
    );

    const runEvents = await Promise.all(results.map((result) => completeEvents(runtime, result)));
    // They really ran at once: every run had started before any of them ended.
    const starts = runEvents.map((events) => Date.parse(events[0]!.ts));
    const ends = runEvents.map((events) => Date.parse(events.at(-1)!.ts));
    expect(Math.max(...starts)).toBeLessThanOrEqual(Math.min(...ends));
    for (const [index, result] of results.entries()) {
      const own = expectedTools(index);
      const events = runEvents[index]!;
      expect(result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', answer: `run ${label(index)} done`, llm_calls: 2 });
      expect(ofType(events, 'run-start')[0]!.tools).toEqual(own);
      const requests = requestsOf(world.mock, marker(index));
      expect(requests).toHaveLength(2);
      for (const body of requests) expect(offeredTools(body)).toEqual(own);
      const stored = await runtime.store.steps.list(result.run_id);
      if (index === count - 1) {
        expect(stored.map((step) => [step.tool, step.error])).toEqual([[probe(index), null]]);
        continue;
      }
      // Steps are stored in the order the calls ended; the two calls ran side by side.
      const byCall = new Map(stored.map((step) => [step.callId, step]));
      expect([...byCall.keys()].sort()).toEqual([`foreign_${label(index)}`, `own_${label(index)}`]);
      expect(byCall.get(`own_${label(index)}`)).toMatchObject({ tool: probe(index), error: null, output: expect.stringContaining(`"n":${index}`) });
      // The neighbour's probe is refused as unknown, and the refusal lists this run's own tools only.
      expect(byCall.get(`foreign_${label(index)}`)).toMatchObject({ tool: probe(index + 1), output: null });
      expect(byCall.get(`foreign_${label(index)}`)!.error).toContain(`No tool named "${probe(index + 1)}". Available tools: ${probe(index)}.`);
      expect(result.steps[1]).toMatchObject({ ok: false, error: { name: 'ToolNotFoundError' } });
      expect(ofType(events, 'tool-result').map((event) => event.tool)).toEqual([probe(index)]);
      expect(ofType(events, 'policy-decision').map((event) => event.tool)).toEqual([probe(index)]);
    }
    // Each probe ran once, for its own run: no foreign call reached one.
    expect(executions.size).toBe(count);
    for (const [index, result] of results.entries()) expect(executions.get(probe(index))).toEqual([result.run_id]);
    // The tool registered mid-run reached no running run; a run started now has it.
    expect(world.mock.getRequests().some((request) => offeredTools(request.body).includes('late_probe'))).toBe(false);
    world.mock.on({ userMessage: 'TOOLSET-LATER: anything new?' }, { content: 'yes', usage });
    const later = await runTask(runtime, { task: 'TOOLSET-LATER: anything new?', model, maxRetries: 0 });
    expect(ofType(await completeEvents(runtime, later), 'run-start')[0]!.tools).toEqual([...catalogAtStart, 'late_probe']);
    expect(offeredTools(requestsOf(world.mock, 'TOOLSET-LATER')[0])).toContain('late_probe');
  });

  it("refuses a model that asks for another run's tool, by its name or an alias, and that tool runs only for its own run", async () => {
    const runtime = await open();
    const vaultRuns: string[] = [];
    const aliceStarted = signal();
    runtime.bus.subscribe((event) => {
      if (event.type === 'run-start' && event.task.startsWith('TOOLSET-ATTACK alice')) aliceStarted.resolve();
    });
    runtime.registry.register(defineTool({ name: 'notes_read', description: 'Reads notes.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => 'notes' }));
    runtime.registry.register(
      defineTool({
        name: 'vault_open',
        description: 'Opens the vault.',
        inputSchema: z.object({}),
        risk: 'medium',
        sideEffect: 'write',
        async execute(_input, context) {
          vaultRuns.push(context.runId);
          return 'opened';
        },
      }),
    );
    const attempts = ['vault_open', 'vaultOpen', 'functions.vault_open', 'vault-open'];
    world.mock.on({ userMessage: 'TOOLSET-ATTACK alice', hasToolResult: false }, { toolCalls: attempts.map((name, index) => ({ id: `attack_${index}`, name, arguments: '{}' })), usage });
    world.mock.on({ userMessage: 'TOOLSET-ATTACK alice', hasToolResult: true }, { content: 'no vault for me', usage });
    world.mock.on({ userMessage: 'TOOLSET-ATTACK bob', hasToolResult: false }, { toolCalls: [{ id: 'bob_vault', name: 'vault_open', arguments: '{}' }], usage });
    world.mock.on({ userMessage: 'TOOLSET-ATTACK bob', hasToolResult: true }, { content: 'vault opened', usage });

    const alice = runTask(runtime, { task: 'TOOLSET-ATTACK alice', model, maxRetries: 0, tools: ['notes_read'] });
    await aliceStarted.promise;
    const bob = runTask(runtime, { task: 'TOOLSET-ATTACK bob', model, maxRetries: 0, tools: ['vault_open'] });
    const [aliceResult, bobResult] = await Promise.all([alice, bob]);

    expect(aliceResult.steps.map((step) => [step.tool, step.ok, step.error?.name])).toEqual(attempts.map((name) => [name, false, 'ToolNotFoundError']));
    for (const step of aliceResult.steps) expect(step.output).toContain('Available tools: notes_read.');
    expect(ofType(await completeEvents(runtime, aliceResult), 'policy-decision')).toEqual([]);
    expect(bobResult.steps).toMatchObject([{ tool: 'vault_open', ok: true }]);
    expect(vaultRuns).toEqual([bobResult.run_id]);
  });

  it('names the tools that do not exist before any run, conversation or model call, listing what does', async () => {
    const runtime = await open();
    const runsBefore = (await runtime.runs.list()).length;
    const requestsBefore = world.mock.getRequests().length;

    const error = await runTask(runtime, { task: 'TOOLSET-TYPO', model, tools: ['web_search', 'web_serch'] }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnknownToolsError);
    expect(error).toMatchObject({ toolNames: ['web_serch'], availableTools: runtime.registry.names() });
    expect((error as Error).message).toContain('No tool named "web_serch". Available tools: web_search, read_url, http_request.');
    expect((await runtime.runs.list()).length).toBe(runsBefore);
    expect(world.mock.getRequests().length).toBe(requestsBefore);
    const converging = await runTask(runtime, { task: 'TOOLSET-TYPO', model, converge: true, tools: ['update_plan'] }).catch((caught: unknown) => caught);
    expect(converging).toMatchObject({ name: 'UnknownToolsError', toolNames: ['update_plan'] });
  });

  it("puts a tool a converge run promotes into that run's set and the catalog, never into a run already going", async () => {
    const runtime = await open();
    const [article, spam] = await Promise.all([world.web.pages.article, world.web.pages.spam].map(async (url) => linkCount((await runtime.fetch(url)).text())));
    const promoted = signal();
    const bystandersStarted = signal();
    let started = 0;
    runtime.bus.subscribe((event) => {
      if (event.type === 'toolbox-change' && event.tool === 'count_links' && event.status === 'promoted') promoted.resolve();
      if (event.type === 'run-start' && event.task.includes('BYSTANDER') && (started += 1) === 2) bystandersStarted.resolve();
    });
    runtime.registry.register(
      defineTool({
        name: 'wait_for_news',
        description: 'Waits until something changed.',
        inputSchema: z.object({}),
        risk: 'low',
        sideEffect: 'read',
        async execute() {
          await promoted.promise;
          return 'something changed';
        },
      }),
    );
    scriptSynthesis(world.mock, 'SYNTH-TOOLSET', { tool: () => countLinksTool, test: () => countLinksTest([{ url: world.web.pages.article, links: article! }, { url: world.web.pages.spam, links: spam! }]) });
    scriptAgent(world.mock, 'TOOLSET-PROMOTER', (turn) =>
      [
        { name: 'request_tool', arguments: { name: 'count_links', purpose: 'SYNTH-TOOLSET: count the links (<a href>) on an HTML page', signature: 'count_links({url: string}) -> {url: string, count: number}' } },
        { name: 'count_links', arguments: { url: world.web.pages.article } },
        { name: 'final_answer', arguments: { answer: `${article} links` } },
      ][turn]!,
    );
    const catalogSeen: boolean[] = [];
    world.mock.on({ predicate: (request) => firstUser(request).includes('TOOLSET-BYSTANDER') }, (request: MockRequest) => {
      const turn = assistantTurns(request);
      catalogSeen.push(runtime.registry.get('count_links') !== undefined);
      if (turn === 0) return { toolCalls: [{ id: 'bystander_wait', name: 'wait_for_news', arguments: '{}' }], usage };
      if (turn === 1) return { toolCalls: [{ id: 'bystander_count', name: 'count_links', arguments: JSON.stringify({ url: world.web.pages.spam }) }], usage };
      return { content: 'bystander done', usage };
    });

    // A second bystander in convergence mode, which offers its tools anew every turn.
    scriptAgent(world.mock, 'TOOLSET-CONVERGE-BYSTANDER', (turn) =>
      [
        { name: 'wait_for_news', arguments: {} },
        { name: 'count_links', arguments: { url: world.web.pages.spam } },
      ][turn]!,
    );

    const bystander = runTask(runtime, { task: 'TOOLSET-BYSTANDER: wait, then count', model, maxRetries: 0 });
    const convergingBystander = runTask(runtime, { task: 'TOOLSET-CONVERGE-BYSTANDER: wait, then count', model, converge: true, maxRetries: 0 });
    await bystandersStarted.promise;
    const promoter = await runTask(runtime, { task: `TOOLSET-PROMOTER: count the links on ${world.web.pages.article}`, model, converge: true, maxRetries: 0 });
    const [bystanderResult, convergingResult] = await Promise.all([bystander, convergingBystander]);

    expect(promoter).toMatchObject({ status: 'completed', halt_reason: 'final_answer', syntheses: 1 });
    expect(promoter.steps.map((step) => [step.tool, step.ok])).toEqual([
      ['request_tool', true],
      ['count_links', true],
      ['final_answer', true],
    ]);
    const promoterEvents = await completeEvents(runtime, promoter);
    expect(ofType(promoterEvents, 'run-start')[0]!.tools).not.toContain('count_links');
    const agentTurns = requestsOf(world.mock, 'TOOLSET-PROMOTER').filter((body) => offeredTools(body).includes('final_answer'));
    expect(agentTurns.map((body) => offeredTools(body).includes('count_links'))).toEqual([false, true, true]);

    // The bystander asked after the promotion, when the catalog had the tool: it was never offered, and its call was refused.
    expect(catalogSeen).toEqual([false, true, true]);
    expect(bystanderResult).toMatchObject({ status: 'completed', answer: 'bystander done' });
    expect(bystanderResult.steps.map((step) => [step.tool, step.ok, step.error?.name ?? null])).toEqual([
      ['wait_for_news', true, null],
      ['count_links', false, 'ToolNotFoundError'],
    ]);
    const bystanderEvents = await completeEvents(runtime, bystanderResult);
    const bystanderTools = ofType(bystanderEvents, 'run-start')[0]!.tools;
    expect(bystanderTools).not.toContain('count_links');
    expect(bystanderResult.steps[1]!.output).toContain(`Available tools: ${bystanderTools.join(', ')}.`);
    for (const body of requestsOf(world.mock, 'TOOLSET-BYSTANDER')) expect(offeredTools(body)).toEqual(bystanderTools);
    // A refused call changes nothing, so that turn is stable and the run converges there.
    expect(convergingResult).toMatchObject({ status: 'completed', halt_reason: 'converged' });
    expect(convergingResult.steps.map((step) => [step.tool, step.ok, step.error?.name ?? null])).toEqual([
      ['wait_for_news', true, null],
      ['count_links', false, 'ToolNotFoundError'],
    ]);
    const convergingRequests = requestsOf(world.mock, 'TOOLSET-CONVERGE-BYSTANDER').filter((body) => offeredTools(body).includes('final_answer'));
    expect(convergingRequests).toHaveLength(2);
    for (const body of convergingRequests) {
      expect(offeredTools(body)).not.toContain('count_links');
      // Its state blocks never list another run's promotion as a tool it has (a line of the JSON text ends at an escaped newline).
      const promotedLines = [...JSON.stringify(body).matchAll(/promoted tools: ([^\\]*)/g)].map((match) => match[1]);
      expect(promotedLines.length).toBeGreaterThan(0);
      expect(new Set(promotedLines)).toEqual(new Set(['(none)']));
    }
    expect(await runtime.toolbox.get('count_links')).toMatchObject({ status: 'promoted', uses: 1 });

    // A run started now takes the promoted tool from the catalog.
    world.mock.on({ userMessage: 'TOOLSET-AFTER: which tools?' }, { content: 'count_links among them', usage });
    const after = await runTask(runtime, { task: 'TOOLSET-AFTER: which tools?', model, maxRetries: 0 });
    expect(ofType(await completeEvents(runtime, after), 'run-start')[0]!.tools).toEqual([...bystanderTools, 'count_links']);
    expect(offeredTools(requestsOf(world.mock, 'TOOLSET-AFTER')[0])).toContain('count_links');
  });

  it('replays a skill and calls a tool with the tools there were when each started', async () => {
    const runtime = await open();
    const ran: string[] = [];
    const lookup = (name: string, version: string) =>
      defineTool({
        name,
        description: `Looks up (${version}).`,
        inputSchema: z.object({ key: z.string() }),
        risk: 'low',
        sideEffect: 'read',
        async execute({ key }) {
          ran.push(`${name} ${version}`);
          // Mid-run, the catalog's second tool is replaced, as a reconnecting server would replace it.
          if (name === 'first_lookup') {
            runtime.registry.unregister('second_lookup');
            runtime.registry.register(lookup('second_lookup', 'replacement'));
          }
          return { key, found: `${key} via ${version}` };
        },
      });
    runtime.registry.register(lookup('first_lookup', 'original'));
    runtime.registry.register(lookup('second_lookup', 'original'));
    const step = (tool: string) => ({ tool, arguments: [{ path: 'key', binding: { kind: 'variable', name: 'key' } }] });
    const recorded = (tool: string) => ({ tool, input: { key: 'tides' }, result: { key: 'tides', found: 'tides via original' } });
    const document = parseSkillDocument({
      format: 'forge-skill',
      version: 1,
      id: 'skill-two-lookups',
      name: 'two-lookups',
      description: 'Looks a key up twice.',
      task_template: 'Look up {{key}} twice',
      variables_schema: { type: 'object', properties: { key: { type: 'string', description: 'What to look up.', examples: ['tides'] } }, required: ['key'], additionalProperties: false },
      steps: [step('first_lookup'), step('second_lookup')],
      tools: [],
      provenance: { run_id: 'run-recorded', model: 'none', task: 'Look up tides twice', recorded_at: '2026-01-01T00:00:00.000Z' },
      output_contract: { steps: [{ type: 'object', keys: ['key', 'found'] }, { type: 'object', keys: ['key', 'found'] }], final_non_empty: true },
      recording: { inputs: { key: 'tides' }, steps: [recorded('first_lookup'), recorded('second_lookup')] },
    });

    const replay = await runSkill(runtime, { skill: document, inputs: { key: 'moons' } });

    expect(replay).toMatchObject({ status: 'completed', mode: 'deterministic', llm_calls: 0 });
    expect(ran).toEqual(['first_lookup original', 'second_lookup original']);
    expect(replay.steps[1]!.output).toContain('moons via original');
    // A direct call started now resolves among the catalog's current tools.
    const call = await callTool(runtime, { name: 'second_lookup', input: { key: 'stars' } });
    expect(call.outcome).toMatchObject({ ok: true, value: { key: 'stars', found: 'stars via replacement' } });
    expect(ran.at(-1)).toBe('second_lookup replacement');
  });

  it("keeps a running run's MCP tools when the server reconnects with another tool list", async () => {
    const echo: FixtureTool = { description: 'Echoes a message.', inputSchema: { message: z.string() }, handler: (args) => ({ content: [{ type: 'text', text: `echo: ${String(args['message'])}` }] }) };
    const server: FixtureMcpServer = await startFixtureMcpServer({
      name: 'fix',
      tools: { echo, gone: { description: 'Leaves soon.', inputSchema: {}, handler: () => ({ content: [{ type: 'text', text: 'still here' }] }) } },
    });
    try {
      const runtime = await open({ FORGE_ALLOW_HOSTS: `${world.env['FORGE_ALLOW_HOSTS']},127.0.0.1:${server.port}` }, { mcp: { startupWaitMs: 0, backoff: { initialMs: 20, maxMs: 100 }, timeoutMs: 5_000 } });
      await runtime.mcp.add({ name: 'fix', url: server.url, transport: 'streamable-http' });
      const holding = signal();
      const release = signal();
      runtime.registry.register(
        defineTool({
          name: 'hold',
          description: 'Holds the run.',
          inputSchema: z.object({}),
          risk: 'low',
          sideEffect: 'read',
          async execute() {
            holding.resolve();
            await release.promise;
            return 'released';
          },
        }),
      );
      const catalogSeen: string[][] = [];
      world.mock.on({ predicate: (request) => firstUser(request).includes('TOOLSET-MCP') }, (request: MockRequest) => {
        catalogSeen.push(runtime.registry.names().filter((name) => name.startsWith('mcp__')));
        if (assistantTurns(request) === 0) return { toolCalls: [{ id: 'mcp_hold', name: 'hold', arguments: '{}' }], usage };
        if (assistantTurns(request) === 1) {
          return {
            toolCalls: [
              { id: 'mcp_echo', name: 'mcp__fix__echo', arguments: JSON.stringify({ message: 'after the reconnect' }) },
              { id: 'mcp_shout', name: 'mcp__fix__shout', arguments: JSON.stringify({ text: 'new' }) },
            ],
            usage,
          };
        }
        return { content: 'mcp done', usage };
      });

      const running = runTask(runtime, { task: 'TOOLSET-MCP: hold, then echo', model, maxRetries: 0 });
      await holding.promise;
      const sessionsBefore = server.sessionsStarted;
      // The server restarts its sessions with another tool list; Forge notices, reconnects and updates the catalog.
      await server.dropSessions();
      server.removeTool('gone');
      server.addTool('shout', { description: 'Shouts.', inputSchema: { text: z.string() }, handler: (args) => ({ content: [{ type: 'text', text: String(args['text']).toUpperCase() }] }) });
      await runtime.mcp.refresh('fix');
      await expect.poll(() => runtime.mcp.status('fix'), { timeout: 10_000 }).toMatchObject({ state: 'connected', tools: ['mcp__fix__echo', 'mcp__fix__shout'] });
      expect(server.sessionsStarted).toBe(sessionsBefore + 1);
      release.resolve();
      const result = await running;

      expect(catalogSeen).toEqual([
        ['mcp__fix__echo', 'mcp__fix__gone'],
        ['mcp__fix__echo', 'mcp__fix__shout'],
        ['mcp__fix__echo', 'mcp__fix__shout'],
      ]);
      const events = await completeEvents(runtime, result);
      const own = ofType(events, 'run-start')[0]!.tools;
      expect(own).toEqual(expect.arrayContaining(['hold', 'mcp__fix__echo', 'mcp__fix__gone']));
      expect(own).not.toContain('mcp__fix__shout');
      for (const body of requestsOf(world.mock, 'TOOLSET-MCP')) expect(offeredTools(body)).toEqual(own);
      expect(result).toMatchObject({ status: 'completed', answer: 'mcp done' });
      // Its echo goes to the server's new session; the tool the server gained is not the run's.
      expect(result.steps.map((step) => [step.tool, step.ok])).toEqual([
        ['hold', true],
        ['mcp__fix__echo', true],
        ['mcp__fix__shout', false],
      ]);
      expect(result.steps[1]!.output).toContain('echo: after the reconnect');
      expect(result.steps[2]).toMatchObject({ error: { name: 'ToolNotFoundError' } });
      expect(server.calls.get('shout')).toBeUndefined();
      expect(server.calls.get('echo')).toBe(1);

      world.mock.on({ userMessage: 'TOOLSET-MCP-LATER' }, { content: 'later', usage });
      const later = await runTask(runtime, { task: 'TOOLSET-MCP-LATER', model, maxRetries: 0 });
      const laterTools = ofType(await completeEvents(runtime, later), 'run-start')[0]!.tools;
      expect(laterTools).toContain('mcp__fix__shout');
      expect(laterTools).not.toContain('mcp__fix__gone');
    } finally {
      await server.close();
    }
  });
});
