import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { listenHttp, type HttpListener } from '../src/server/http/index.js';
import { createRuntimeMcpEndpoint, type StreamableHttpEndpoint } from '../src/server/mcp/index.js';
import { runCli } from './support/built-cli.js';
import { factSkill } from './fixtures/fact-skill.js';

interface Refusal {
  readonly name: string;
  readonly message: string;
  readonly hint: string;
}

/**
 * The same bad request through every entrance that can express it: the front door (`runs.submit` /
 * `runs.execute`) refuses it once, so each entrance answers with the same error name, text and hint,
 * and nothing is recorded.
 */
describe('the run front door refuses a bad request the same way through the CLI, the API and the MCP endpoint', () => {
  let home: string;
  let env: Record<string, string>;
  let runtime: ForgeRuntime;
  let api: ApiServer;
  let endpoint: StreamableHttpEndpoint;
  let listener: HttpListener;
  let client: Client;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-front-door-'));
    // A model is configured (never called: every request here is refused before a run exists).
    env = { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', FORGE_MODEL: 'openai:gpt-4.1-mini' };
    runtime = await openRuntime(env, home, { mcp: { startupWaitMs: 0 } });
    await runtime.store.skills.save({ id: factSkill.id, name: factSkill.name, description: factSkill.description, document: factSkill, note: 'saved' });
    api = await serveApi(runtime, { port: 0 });
    listener = await listenHttp({ host: '127.0.0.1', port: 0, handle: (request, response) => endpoint.handle(request, response) });
    endpoint = createRuntimeMcpEndpoint(runtime, { exposedTools: [], publishedSkills: ['fact-lookup'], version: '0.0.0' });
    client = new Client({ name: 'front-door-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.origin}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
    await listener?.close();
    await api?.close();
    await runtime?.close();
    await rm(home, { recursive: true, force: true });
  });

  async function apiRefusal(route: string, body: unknown): Promise<{ status: number; error: Refusal }> {
    const response = await fetch(`${api.listener.origin}/api/v1${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, error: ((await response.json()) as { error: Refusal }).error };
  }

  it('a skill replay with an input the skill refuses (blank text): one SkillInputError, word for word, and no run', async () => {
    const overApi = await apiRefusal('/skills/fact-lookup/run', { inputs: { key: '   ' } });
    const overMcp = await client.callTool({ name: 'skill_fact-lookup', arguments: { key: '   ' } }).catch((error: unknown) => error);
    const overCli = await runCli(['skill', 'run', 'fact-lookup', '--input', 'key=   ', '--json'], env);

    const refusal = { name: 'SkillInputError', message: 'Input "key": is empty.', hint: 'Inputs of fact-lookup: key (string, required, e.g. "tides").' };
    expect(overApi).toEqual({ status: 400, error: refusal });
    expect(overMcp).toBeInstanceOf(McpError);
    expect((overMcp as McpError).data).toEqual(refusal);
    expect((overMcp as McpError).message).toContain(refusal.message);
    expect(overCli.code).toBe(1);
    expect(JSON.parse(overCli.stdout)).toMatchObject({ error: refusal });
    expect(await runtime.store.runs.list()).toEqual([]);
  });

  it('an agent run naming a tool that does not exist: one UnknownToolsError, word for word, and no run or conversation', async () => {
    const overApi = await apiRefusal('/runs', { task: 'look it up', tools: ['no_such_tool'] });
    const overCli = await runCli(['run', '--tools', 'no_such_tool', '--json', 'look it up'], env);

    expect(overApi.status).toBe(400);
    expect(overApi.error).toMatchObject({ name: 'UnknownToolsError', message: expect.stringMatching(/^No tool named "no_such_tool"\. Available tools: /) });
    expect(JSON.parse(overCli.stdout)).toMatchObject({ error: overApi.error });
    expect(overCli.code).toBe(2);
    expect(await runtime.store.runs.list()).toEqual([]);
    expect(await runtime.store.conversations.list({ limit: 10 })).toEqual([]);
  });
});
