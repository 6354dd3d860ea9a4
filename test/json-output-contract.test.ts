import type { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandKey } from '../src/cli/command-path.js';
import { buildProgram } from '../src/cli/program.js';
import { commandOutputs, errorOutputSchema } from '../src/cli/json-output/index.js';
import { startFixtureWorld, type FixtureWorldServer } from '../src/demo/index.js';
import { startFixtureMcpServer, type FixtureMcpServer } from './fixtures/mcp/fixture-mcp-server.js';
import { countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { runCli, type CliResult } from './support/built-cli.js';
import { dropSchema, freshSchemaName, onSchema, POSTGRES_TEST_URL } from './support/postgres-test-schema.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

/** Every command of the tree that takes `--json`, by the words after `forge` (`tools call`). */
function commandsTakingJson(command: Command): string[] {
  const own = command.options.some((option) => option.long === '--json') ? [commandKey(command)] : [];
  return [...own, ...command.commands.flatMap(commandsTakingJson)];
}

/** `value` checked against `schema` with nothing left over: a key the schema does not declare fails (zod strips it, so the parse differs). */
function expectConforms(schema: z.ZodType, value: unknown, label: string): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues, `${label}: ${JSON.stringify(value).slice(0, 400)}`).toEqual([]);
  expect(parsed.data, `${label} has keys its schema does not declare`).toEqual(value);
}

/** Every number in `value` with the key it sits under. */
function figuresIn(value: unknown, key = ''): { key: string; value: number }[] {
  if (typeof value === 'number') return [{ key, value }];
  if (Array.isArray(value)) return value.flatMap((item) => figuresIn(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, item]) => figuresIn(item, name));
}

/**
 * The JSON-output contract, from the built binary: every command that takes `--json` (found in the
 * command tree, so a new command without a registered schema fails here) is run for real and its output
 * checked against its strict schema; errors, argument-parser errors included, are the one error document.
 */
describe('the --json contract of every command', () => {
  let world: EngineWorld;
  let fixtureWorld: FixtureWorldServer;
  let mcpServer: FixtureMcpServer;
  let hook: Server;
  let env: Record<string, string>;
  const outputs = new Map<string, unknown[]>();
  const work = (name: string) => path.join(world.home, 'work', name);

  async function forge(args: readonly string[], extraEnv: Record<string, string> = {}, options: { onSpawn?: (child: ReturnType<typeof spawn>) => void; input?: string } = {}): Promise<CliResult & { json: unknown }> {
    const result = await runCli(args, { ...env, ...extraEnv }, { timeoutMs: 120_000, ...options });
    let json: unknown;
    try {
      json = JSON.parse(result.stdout) as unknown;
    } catch {
      throw new Error(`forge ${args.join(' ')} printed no JSON document (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    }
    return { ...result, json };
  }

  /** Runs a command whose success output the contract checks, keeping it under the command's path. */
  async function record(command: string, args: readonly string[], extraEnv: Record<string, string> = {}, input?: string): Promise<Record<string, unknown>> {
    const result = await forge(args, extraEnv, input === undefined ? {} : { input });
    expect(Object.keys(result.json as object), `forge ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`).not.toEqual(['error']);
    outputs.set(command, [...(outputs.get(command) ?? []), result.json]);
    return result.json as Record<string, unknown>;
  }

  /** Starts a run that pauses for an approval, and kills its process once the run is stored waiting. */
  async function waitingRun(task: string): Promise<string> {
    let announce: (runId: string) => void = () => undefined;
    const paused = new Promise<string>((resolve) => (announce = resolve));
    let child: ReturnType<typeof spawn> | undefined;
    const done = runCli(['run', '--no-tui', '--wait-for-approval', '--model', MODEL, task], { ...env, FORGE_REQUIRE_APPROVAL: 'http_request' }, {
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
    const runId = await paused;
    child?.kill('SIGKILL');
    await done;
    return runId;
  }

  beforeAll(async () => {
    world = await startEngineWorld();
    fixtureWorld = await startFixtureWorld();
    mcpServer = await startFixtureMcpServer({
      name: 'fixture',
      tools: { add: { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, handler: (args) => ({ content: [{ type: 'text', text: String(Number(args['a']) + Number(args['b'])) }] }) } },
    });
    hook = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"stored":true}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookPort = (hook.address() as AddressInfo).port;
    env = {
      ...world.env,
      // The demo leaves its runs and skill in the home it ran in: the commands below work in the same home.
      FORGE_HOME: world.home,
      FORGE_MODEL: MODEL,
      FORGE_RESOLVE: `${world.env['FORGE_RESOLVE']},${fixtureWorld.resolve},hooks.forge-fixture.dev:${hookPort}:127.0.0.1`,
      FORGE_ALLOW_HOSTS: `${world.env['FORGE_ALLOW_HOSTS']},${fixtureWorld.allowHosts},127.0.0.1:${mcpServer.port},hooks.forge-fixture.dev:${hookPort}`,
      FORGE_SEARXNG_URL: fixtureWorld.searchUrl,
    };
    world.mock.on({ userMessage: 'What is the contract?', hasToolResult: false }, { toolCalls: [{ id: 'call_search', name: 'web_search', arguments: { query: 'lumen release notes' } }] });
    world.mock.on({ toolCallId: 'call_search' }, { content: 'The contract is one JSON convention.' });
    for (const id of ['call_approve', 'call_deny', 'call_always', 'call_cancel']) {
      world.mock.on({ userMessage: `post for ${id}`, hasToolResult: false }, { toolCalls: [{ id, name: 'http_request', arguments: { url: `http://hooks.forge-fixture.dev:${hookPort}/${id}`, method: 'POST', body: '{}' } }] });
      world.mock.on({ toolCallId: id }, { content: `Done with ${id}.` });
    }
    const fetch = createGuardedFetch({ allowHosts: parseAllowHosts(world.web.allowHosts), resolve: parseResolveEntries(world.web.resolveEntries) });
    const pages = await Promise.all([world.web.pages.article, world.web.pages.spam].map(async (url) => ({ url, links: linkCount((await fetch(url)).text()) })));
    await mkdir(work(''), { recursive: true });
    await writeFile(work('count-links.js'), countLinksTool);
    await writeFile(work('count-links.test.js'), countLinksTest(pages));
    const agentYaml = (prompt: string) => `version: 1\nname: Contract\nslug: contract\ntools:\n  read_url: allowed\nparameters:\n  - name: topic\n    type: text\n    required: true\nsystem_prompt: "${prompt} {{ params.topic }}"\n`;
    await writeFile(work('agent-v1.yaml'), agentYaml('Research'));
    await writeFile(work('agent-v2.yaml'), agentYaml('Look into'));
    await writeFile(work('agent-v3.yaml'), agentYaml('Dig into'));
  }, 120_000);

  afterAll(async () => {
    hook?.closeAllConnections();
    await new Promise((resolve) => hook?.close(resolve));
    await mcpServer?.close();
    await fixtureWorld?.close();
    await world?.close();
  });

  it('has a registered output schema for every command that takes --json, and none for a command that does not exist', () => {
    const taking = commandsTakingJson(buildProgram()).sort();
    expect(taking.length).toBeGreaterThan(20);
    expect(taking.filter((name) => commandOutputs[name] === undefined), 'commands with --json but no registered output schema').toEqual([]);
    expect(Object.keys(commandOutputs).filter((name) => !taking.includes(name)), 'schemas registered for commands that do not take --json').toEqual([]);
  });

  it("runs every command with --json and each output matches its command's strict schema", async () => {
    // The demo first: it leaves a home with runs and a skill.
    await record('demo', ['demo', '--json'], { FORGE_HOME: world.home });
    await record('demo', ['demo', '--toolbox', '--json'], { FORGE_HOME: world.home });

    const run = await record('run', ['run', '--json', 'What is the contract?']);
    await record('runs list', ['runs', 'list', '--json']);
    await record('runs show', ['runs', 'show', String(run['run_id']), '--json']);
    await record('replay', ['replay', String(run['log_file']), '--json']);
    await record('stats', ['stats', '--json']);
    await record('stats', ['stats', '--all', '--json']);
    await record('stats', ['stats', String(run['log_file']), '--json']);

    await record('tools list', ['tools', 'list', '--json']);
    await record('tools show', ['tools', 'show', 'read_url', '--json']);
    await record('tools add', ['tools', 'add', work('count-links.js'), '--test', work('count-links.test.js'), '--json']);
    await record('tools show', ['tools', 'show', 'count_links', '--json']);
    await record('tools test', ['tools', 'test', 'count_links', '--json']);
    // An added tool is the installation's already: promoting it changes nothing and says so.
    await record('tools promote', ['tools', 'promote', 'count_links', '--json']);
    await record('tools call', ['tools', 'call', 'count_links', '--input', JSON.stringify({ url: world.web.pages.article }), '--json']);
    await record('tools call', ['tools', 'call', 'read_url', '--input', JSON.stringify({ url: 'not a url' }), '--json']);
    const exported = await runCli(['tools', 'export', work('toolbox.json')], env);
    expect(exported.code, exported.stderr).toBe(0);
    await record('tools remove', ['tools', 'remove', 'count_links', '--json']);
    await record('tools import', ['tools', 'import', work('toolbox.json'), '--json']);

    // A header is sealed, so the installation gets its key file (rotated below by forge secret-key rotate).
    await record('mcp add', ['mcp', 'add', 'calc', mcpServer.url, '--header', 'X-Contract=sealed-value-123', '--json']);
    await record('mcp list', ['mcp', 'list', '--json']);
    await record('mcp refresh', ['mcp', 'refresh', 'calc', '--json']);
    await record('mcp tools', ['mcp', 'tools', 'calc', '--json']);
    await record('mcp remove', ['mcp', 'remove', 'calc', '--json']);
    let served = '';
    const serve = await runCli(['mcp', 'serve', '--port', '0', '--expose', 'read_url', '--json'], env, {
      onSpawn: (child) =>
        child.stdout?.on('data', (chunk: Buffer) => {
          served += chunk.toString();
          if (served.trimEnd().endsWith('}')) child.kill('SIGINT');
        }),
    });
    expect(serve.code, serve.stderr).toBe(0);
    outputs.set('mcp serve', [JSON.parse(serve.stdout) as unknown]);

    const skill = 'latest-release-notes';
    await record('skill list', ['skill', 'list', '--json']);
    await record('skill show', ['skill', 'show', skill, '--json']);
    await record('skill run', ['skill', 'run', skill, '--input', 'topic=tessera', '--json']);
    await record('skill test', ['skill', 'test', skill, '--json']);
    const skillRun = await record('run', ['run', '--skills', '--json', 'Find the latest release of kestrel, choose the official documentation and summarize what changed.']);
    expect(skillRun).toMatchObject({ replayed_skill: skill, mode: 'guided', llm_calls: 0 });
    await record('skill save', ['skill', 'save', run['run_id'] as string, '--name', 'the-contract', '--json']);
    await record('skill edit', ['skill', 'edit', skill, '--constant', 'steps[0].max_results', '--json']);
    await record('skill versions', ['skill', 'versions', skill, '--json']);
    await record('skill rollback', ['skill', 'rollback', skill, '1', '--json']);
    const exportedSkill = await runCli(['skill', 'export', skill, work('skill.json')], env);
    expect(exportedSkill.code, exportedSkill.stderr).toBe(0);
    await record('skill import', ['skill', 'import', work('skill.json'), '--json']);

    const approveId = await waitingRun('post for call_approve');
    await record('approvals list', ['approvals', 'list', '--json']);
    await record('approvals approve', ['approvals', 'approve', approveId, 'call_approve', '--json'], { FORGE_REQUIRE_APPROVAL: 'http_request' });
    const denyId = await waitingRun('post for call_deny');
    await record('approvals deny', ['approvals', 'deny', denyId, 'call_deny', '--reason', 'not this one', '--json'], { FORGE_REQUIRE_APPROVAL: 'http_request' });
    const alwaysId = await waitingRun('post for call_always');
    const always = await record('approvals approve', ['approvals', 'approve', alwaysId, 'call_always', '--always', '--json'], { FORGE_REQUIRE_APPROVAL: 'http_request' });
    await record('approvals grants', ['approvals', 'grants', '--json']);
    await record('approvals revoke', ['approvals', 'revoke', (always['grant'] as { id: string }).id, '--json']);
    await record('policy set', ['policy', 'set', 'http_request', 'block', '--when', 'method not_in GET,HEAD', '--message', 'no writes', '--json']);
    await record('policy default', ['policy', 'default', 'medium', 'require_approval', '--json']);
    await record('policy show', ['policy', 'show', '--json']);
    await record('policy test', ['policy', 'test', 'http_request', '--input', JSON.stringify({ url: 'https://example.com/', method: 'POST' }), '--json']);
    await record('policy unset', ['policy', 'unset', 'http_request', '--when', 'method not_in GET,HEAD', '--json']);
    await record('policy versions', ['policy', 'versions', '--json']);
    await record('policy rollback', ['policy', 'rollback', '1', '--json']);
    await record('policy default', ['policy', 'default', 'medium', 'unset', '--json']);
    await record('policy unset', ['policy', 'unset', 'http_request', '--when', 'method not_in GET,HEAD', '--json']);
    await record('agent create', ['agent', 'create', '--file', work('agent-v1.yaml'), '--json']);
    await record('agent edit', ['agent', 'edit', 'contract', '--file', work('agent-v2.yaml'), '--message', 'reworded', '--json']);
    await record('agent list', ['agent', 'list', '--json']);
    await record('agent show', ['agent', 'show', 'contract@1', '--json']);
    await record('agent versions', ['agent', 'versions', 'contract', '--json']);
    await record('agent diff', ['agent', 'diff', 'contract', '1', '2', '--json']);
    await record('agent rollback', ['agent', 'rollback', 'contract', '1', '--json']);
    await record('agent import', ['agent', 'import', work('agent-v3.yaml'), '--json']);
    await record('agent remove', ['agent', 'remove', 'contract', '--json']);
    const cancelId = await waitingRun('post for call_cancel');
    await record('runs cancel', ['runs', 'cancel', cancelId, '--json']);
    await record('runs delete', ['runs', 'delete', cancelId, '--json']);
    await record('skill rename', ['skill', 'rename', 'the-contract', 'the-contract-renamed', '--json']);
    await record('skill remove', ['skill', 'remove', 'the-contract-renamed', '--json']);

    await record('users add', ['users', 'add', 'ada@example.com', '--admin', '--json'], {}, 'a long enough password\n');
    await record('users add', ['users', 'add', 'bob@example.com', '--json'], {}, 'another long password\n');
    await record('users list', ['users', 'list', '--json']);
    const key = await record('api-keys create', ['api-keys', 'create', '--user', 'bob@example.com', '--name', 'ci', '--scope', 'runs:read,runs:write', '--expires-in-days', '30', '--json']);
    await record('api-keys list', ['api-keys', 'list', '--user', 'bob@example.com', '--json']);
    await record('api-keys revoke', ['api-keys', 'revoke', (key['api_key'] as { key_id: string }).key_id, '--user', 'bob@example.com', '--json']);
    await record('accounts quota set', ['accounts', 'quota', 'set', 'bob@example.com', '--concurrent-runs', '2', '--usd-per-day', '5', '--json']);
    await record('accounts quota show', ['accounts', 'quota', 'show', 'bob@example.com', '--json']);
    await record('accounts quota clear', ['accounts', 'quota', 'clear', 'bob@example.com', '--json']);
    await record('users remove', ['users', 'remove', 'bob@example.com', '--json']);
    await record('secret-key status', ['secret-key', 'status', '--json']);
    await record('secret-key rotate', ['secret-key', 'rotate', '--json']);
    // Everything recorded so far goes over, into a PostgreSQL schema of this test's own.
    const copySchema = freshSchemaName();
    await onSchema('public', (client) => client.query(`CREATE SCHEMA ${copySchema}`));
    try {
      await record('store copy', ['store', 'copy', '--to', `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${copySchema}`)}`, '--json']);
    } finally {
      await dropSchema(copySchema);
    }
    // ada remains, so the serve below runs with accounts (its default once an account exists).

    await record('home', ['home', '--json']);
    await record('config set', ['config', 'set', 'history_messages', '30', '--json']);
    await record('config get', ['config', 'get', 'history_messages', '--json']);
    await record('config list', ['config', 'list', '--json']);
    await record('config unset', ['config', 'unset', 'history_messages', '--json']);
    await record('init', ['init', '--yes', '--json'], { HOME: work('init-home'), FORGE_HOME: work('init-home/.forge') });
    // The doctor reports failed checks as its result (exit 1), still one document of its schema.
    const doctor = await forge(['doctor', '--json']);
    outputs.set('doctor', [doctor.json]);
    let api = '';
    const serveApi = await runCli(['serve', '--port', '0', '--json'], env, {
      onSpawn: (child) =>
        child.stdout?.on('data', (chunk: Buffer) => {
          api += chunk.toString();
          if (api.trimEnd().endsWith('}')) child.kill('SIGTERM');
        }),
    });
    expect(serveApi.code, serveApi.stderr).toBe(0);
    outputs.set('serve', [JSON.parse(serveApi.stdout) as unknown]);

    for (const [command, documents] of outputs) {
      const schema = commandOutputs[command];
      expect(schema, `a schema for ${command}`).toBeDefined();
      for (const document of documents) expectConforms(schema!, document, command);
    }
    expect([...outputs.keys()].sort(), 'every command with a schema was run').toEqual(Object.keys(commandOutputs).sort());
    const figures = [...outputs.values()].flat().flatMap((document) => figuresIn(document));
    expect(figures.filter(({ key }) => key.endsWith('_usd')).length).toBeGreaterThan(10);
    const finerThan = (value: number, decimals: number) => Math.abs(value * 10 ** decimals - Math.round(value * 10 ** decimals)) > 1e-6;
    expect(figures.filter(({ key, value }) => (key.endsWith('_usd') && finerThan(value, 6)) || (key.endsWith('_ms') && finerThan(value, 1)))).toEqual([]);
  }, 600_000);

  it('prints every failure, argument-parser errors included, as the one error document with a hint', async () => {
    const cases: { args: string[]; code: number; name: string; message: RegExp; hint: RegExp }[] = [
      { args: ['tools', 'call', 'read_url', '--json'], code: 2, name: 'UsageError', message: /--input <json>/, hint: /forge tools call --help/ },
      { args: ['runs', 'list', '--bogus', '--json'], code: 2, name: 'UsageError', message: /unknown option '--bogus'/i, hint: /forge runs list --help/ },
      { args: ['runs', 'show', '--json'], code: 2, name: 'UsageError', message: /missing required argument 'run-id'/i, hint: /forge runs show --help/ },
      { args: ['nosuch', '--json'], code: 2, name: 'UsageError', message: /unknown command 'nosuch'/i, hint: /forge --help/ },
      { args: ['runs', 'list', '--limit', 'x', '--json'], code: 2, name: 'ConfigurationError', message: /--limit/, hint: /./ },
      { args: ['tools', 'call', 'read_url', '--input', '{not json', '--json'], code: 2, name: 'ConfigurationError', message: /--input/, hint: /--input '\{"query": "forge"\}'/ },
      { args: ['runs', 'show', 'no-such-run', '--json'], code: 1, name: 'NotFoundError', message: /no-such-run/, hint: /./ },
    ];
    // Independent processes: started together, checked in order.
    const results = await Promise.all(cases.map((failure) => forge(failure.args)));
    for (const [index, failure] of cases.entries()) {
      const result = results[index]!;
      const label = `forge ${failure.args.join(' ')}`;
      expectConforms(errorOutputSchema, result.json, label);
      const { error } = result.json as { error: { name: string; message: string; hint: string } };
      expect({ code: result.code, name: error.name }, label).toEqual({ code: failure.code, name: failure.name });
      expect(error.message, label).toMatch(failure.message);
      expect(error.hint, label).toMatch(failure.hint);
      expect(result.stderr, `${label}: nothing but the document`).toBe('');
    }
  }, 120_000);
});
