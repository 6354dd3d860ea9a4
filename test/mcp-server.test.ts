import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ForgeEvent } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { listenHttp, type HttpListener } from '../src/server/http/index.js';
import { createRuntimeMcpEndpoint, type ExposedToolSource, type StreamableHttpEndpoint } from '../src/server/mcp/index.js';
import { factSkill } from './fixtures/fact-skill.js';

const lookups: string[] = [];

const lookupTool = defineTool({
  name: 'lookup_fact',
  description: 'Looks up a fact by key.',
  inputSchema: z.object({ key: z.string().min(1), limit: z.number().int().min(1).max(5).optional() }),
  risk: 'low',
  sideEffect: 'read',
  async execute({ key }) {
    lookups.push(key);
    if (key === 'broken') throw new Error('the fact index is offline');
    return { key, fact: `the fact about ${key}` };
  },
});

const hiddenTool = defineTool({
  name: 'delete_everything',
  description: 'Not for outside callers.',
  inputSchema: z.object({}),
  risk: 'high',
  sideEffect: 'write',
  async execute() {
    return 'should never run';
  },
});

/** Stands in for promoted synthesized tools, the next source to plug in (through `extraSources`). */
const promotedTools: ExposedToolSource = {
  async list() {
    return [
      {
        name: 'semver_bump',
        description: 'Bumps a semantic version (a promoted synthesized tool).',
        inputSchema: { type: 'object', properties: { version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' } }, required: ['version'], additionalProperties: false },
      },
    ];
  },
  async call(_name, args) {
    const [major, minor] = String(args['version']).split('.');
    return { text: `${major}.${Number(minor) + 1}.0`, isError: false };
  },
};

describe('Forge as an MCP server, used by the official SDK client', () => {
  let home: string;
  let runtime: ForgeRuntime;
  let endpoint: StreamableHttpEndpoint;
  let listener: HttpListener;
  let client: Client;
  const events: ForgeEvent[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'forge-mcp-serve-'));
    runtime = await openRuntime({ FORGE_HOME: home }, home);
    runtime.registry.register(lookupTool);
    runtime.registry.register(hiddenTool);
    runtime.bus.subscribe((event) => events.push(event));
    await runtime.store.skills.save({ id: factSkill.id, name: factSkill.name, description: factSkill.description, document: factSkill, note: 'saved' });
    await runtime.store.skills.save({ id: 'skill-unpublished', name: 'unpublished', description: 'Not published.', document: { ...factSkill, id: 'skill-unpublished', name: 'unpublished' }, note: 'saved' });
    // Bound first (the endpoint needs the runtime's tools); requests arrive only after the client connects.
    listener = await listenHttp({ host: '127.0.0.1', port: 0, handle: (request, response) => endpoint.handle(request, response) });
    endpoint = createRuntimeMcpEndpoint(runtime, {
      exposedTools: ['lookup_fact'],
      publishedSkills: ['fact-lookup'],
      extraSources: [promotedTools],
      version: '0.0.0',
    });
    client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.origin}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
    await listener?.close();
    await runtime?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('lists exposed tools and published skills with their input schemas, and nothing else', async () => {
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(['lookup_fact', 'skill_fact-lookup', 'semver_bump']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { key: { type: 'string', minLength: 1 } }, required: ['key'] });
    // A skill's input schema is its variables schema; its steps and recording stay inside Forge.
    expect(tools[1]).toMatchObject({ description: 'Finds the fact about a key.', inputSchema: factSkill.variables_schema });
    expect(JSON.stringify(tools)).not.toContain('recording');
  });

  it('runs a published skill as a replay and returns its result with the replay summary', async () => {
    const before = lookups.length;

    const result = await client.callTool({ name: 'skill_fact-lookup', arguments: { key: 'comets' } });

    expect(result.isError).toBeUndefined();
    // The replay's answer: the last step's result as readable JSON (its layout is not the contract, its content is).
    const content = result.content as { type: string; text: string }[];
    expect(content.map((part) => part.type)).toEqual(['text']);
    expect(JSON.parse(content[0]!.text)).toEqual({ key: 'comets', fact: 'the fact about comets' });
    expect(result.structuredContent).toMatchObject({ skill: 'fact-lookup', status: 'completed', mode: 'deterministic', llm_calls: 0, tokens: { input: 0, output: 0 }, steps: 1, stale: null, error: null });
    expect(JSON.stringify(result.structuredContent)).not.toContain('arguments');
    expect(lookups.slice(before)).toEqual(['comets']);
    expect(events.filter((event) => event.type === 'skill-step')).toHaveLength(1);
    // A replay like any other: its run is stored and logged, kind skill.
    const run = await runtime.store.runs.get((result.structuredContent as { run_id: string }).run_id);
    expect(run).toMatchObject({ kind: 'skill', status: 'completed' });
    expect((await runtime.store.events.list(run!.id)).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect((await readFile(run!.logFile!, 'utf8')).trim().split('\n').length).toBeGreaterThan(2);
  });

  it('runs a promoted tool from a further source', async () => {
    expect(await client.callTool({ name: 'semver_bump', arguments: { version: '4.6.7' } })).toMatchObject({ content: [{ type: 'text', text: '4.7.0' }] });
  });

  it('runs an exposed registry tool through dispatch as a recorded one-step run: a runs row, a run log, stored events', async () => {
    const eventsBefore = events.length;

    const result = await client.callTool({ name: 'lookup_fact', arguments: { key: 'tides' } });

    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ key: 'tides', fact: 'the fact about tides' }) }]);
    expect(lookups).toContain('tides');
    const emitted = events.slice(eventsBefore);
    expect(emitted.map((event) => event.type)).toEqual(['run-start', 'tool-call-start', 'policy-decision', 'tool-result', 'run-end']);
    const run = await runtime.store.runs.get(emitted[0]!.run_id);
    expect(run).toMatchObject({ kind: 'tool-call', status: 'completed', task: 'tool lookup_fact' });
    expect((await runtime.store.events.list(run!.id)).map((event) => event.type)).toEqual(emitted.map((event) => event.type));
    expect((await readFile(run!.logFile!, 'utf8')).trim().split('\n')).toHaveLength(emitted.length);
  });

  it('answers bad arguments with an InvalidParams error naming each bad field, without running anything', async () => {
    const before = lookups.length;

    const skillError = await client.callTool({ name: 'skill_fact-lookup', arguments: { key: 7 } }).catch((error: unknown) => error);
    const toolError = await client.callTool({ name: 'lookup_fact', arguments: { key: 'x', limit: 9 } }).catch((error: unknown) => error);
    const patternError = await client.callTool({ name: 'semver_bump', arguments: { version: 'latest' } }).catch((error: unknown) => error);

    expect(skillError).toBeInstanceOf(McpError);
    expect(skillError).toMatchObject({ code: ErrorCode.InvalidParams, data: { fields: ['key'] } });
    expect((skillError as McpError).message).toMatch(/Invalid arguments for tool "skill_fact-lookup": key: /);
    expect((patternError as McpError).message).toMatch(/version: /);
    expect(toolError).toMatchObject({ code: ErrorCode.InvalidParams, data: { fields: ['limit'] } });
    expect((toolError as McpError).message).toMatch(/limit: /);
    expect(lookups.length).toBe(before);
  });

  it('reports a tool that fails as an isError result, and refuses unknown or hidden tools', async () => {
    const failed = await client.callTool({ name: 'lookup_fact', arguments: { key: 'broken' } });
    const hidden = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((error: unknown) => error);
    const unpublished = await client.callTool({ name: 'skill_unpublished', arguments: { key: 'x' } }).catch((error: unknown) => error);

    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain('the fact index is offline');
    expect(hidden).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((hidden as McpError).message).toContain('Unknown tool "delete_everything"');
    expect(unpublished).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('refuses requests for another Host (DNS rebinding) and tells an unknown session to start over', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

    const rebound = await post({ ...headers, host: 'attacker.example' }, initialize);
    const stale = await post({ ...headers, 'mcp-session-id': 'no-such-session' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const sameHost = await post(headers, initialize);

    expect(rebound).toBe(403);
    expect(stale).toBe(404);
    expect(sameHost).toBe(200);
  });

  /** A raw POST whose Host header is ours to choose (fetch may not set Host); resolves to the status code. */
  function post(headers: Record<string, string>, body: unknown): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: listener.port, path: '/mcp', method: 'POST', headers }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify(body));
    });
  }
});
