import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, runTask, type ForgeRuntime } from '../src/compose/index.js';
import { startEverythingServer, type EverythingServer } from './fixtures/mcp/start-everything-server.js';

// The reference server (a real peer nobody here wrote) in a child process on 127.0.0.1, and aimock
// playing the model: connect → discover → register → call as a native tool inside an agent run →
// refresh → disconnect → the tools are gone.
describe('MCP client against @modelcontextprotocol/server-everything', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let server: EverythingServer;
  let home: string;
  let runtime: ForgeRuntime;

  beforeAll(async () => {
    [server] = await Promise.all([startEverythingServer(), mock.start()]);
    home = await mkdtemp(join(tmpdir(), 'forge-mcp-'));
    runtime = await openRuntime(
      {
        FORGE_HOME: home,
        FORGE_ALLOW_HOSTS: `127.0.0.1:${server.port}`,
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: `${mock.url}/v1`,
      },
      home,
    );
    mock.on(
      { userMessage: 'echo through mcp', hasToolResult: false },
      { toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'hello from forge' } }], usage: { prompt_tokens: 90, completion_tokens: 20 } },
    );
    mock.on({ userMessage: 'echo through mcp', hasToolResult: true }, { content: 'The server echoed it.', usage: { prompt_tokens: 140, completion_tokens: 8 } });
  });

  afterAll(async () => {
    await runtime?.close();
    await Promise.all([server?.stop(), mock.stop()]);
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('connects, discovers and registers the server\'s tools under mcp__everything__*', async () => {
    const status = await runtime.mcp.add({ name: 'everything', url: server.url, transport: 'streamable-http' });

    expect(status.state).toBe('connected');
    expect(status.tools).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']));
    for (const name of status.tools) expect(runtime.registry.get(name)).toMatchObject({ external: true, sideEffect: 'write' });
    expect(runtime.registry.specification('mcp__everything__get-sum')?.inputSchema).toMatchObject({ properties: { a: { type: 'number' }, b: { type: 'number' } } });
  });

  it('calls a remote tool as a native tool inside an agent run', async () => {
    const result = await runTask(runtime, { task: 'echo through mcp please', model: 'openai:gpt-4.1-mini', maxRetries: 0 });

    expect(result.status).toBe('completed');
    expect(result.answer).toBe('The server echoed it.');
    expect(result.llm_calls).toBe(2);
    expect(result.tokens).toEqual({ input: 230, output: 28 });
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({ ok: true, tool: 'mcp__everything__echo' });
    // The model's second turn carried the server's real answer, wrapped as untrusted content.
    const second = mock.getRequests().filter((request) => JSON.stringify(request.body).includes('echo through mcp')).at(-1)!;
    expect(JSON.stringify(second.body)).toContain('Echo: hello from forge');
    expect(JSON.stringify(second.body)).toContain('untrusted-content');
    const tools = (second.body as { tools?: { function: { name: string } }[] }).tools ?? [];
    expect(tools.map((tool) => tool.function.name)).toContain('mcp__everything__echo');
  });

  it('maps images to references and keeps the test process\'s environment away from the server', async () => {
    const context = { runId: 'direct', callId: 'direct', signal: AbortSignal.timeout(10_000), fetch: runtime.fetch, utilityModel: undefined };

    const image = await runtime.registry.get('mcp__everything__get-tiny-image')!.execute({}, context);
    const environment = JSON.parse(String(await runtime.registry.get('mcp__everything__get-env')!.execute({}, context))) as Record<string, string>;

    expect(image).toMatchObject({ content: expect.arrayContaining([{ type: 'image', mime_type: 'image/png', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]) });
    expect(JSON.stringify(image)).not.toMatch(/iVBORw0KGgo/);
    expect(Object.keys(environment)).toEqual(['PATH']);
  });

  it('refreshes, then disconnects: the tools leave the registry and the server is forgotten', async () => {
    const before = runtime.mcp.status('everything').tools;

    const refreshed = await runtime.mcp.refresh('everything');
    const removed = await runtime.mcp.remove('everything');

    expect(refreshed.state).toBe('connected');
    expect(refreshed.tools).toEqual(before);
    expect(removed).toBe(true);
    expect(runtime.registry.names().filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(await runtime.store.mcpServers.list()).toEqual([]);
    expect(runtime.mcp.statuses()).toEqual([]);
  });
});
