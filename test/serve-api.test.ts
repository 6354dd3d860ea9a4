import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeApiError, ForgeClient } from '../src/client/index.js';
import { defineTool, type ForgeEvent } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { apiRoutes, serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';

/** `forge serve`'s API in process, through the typed client, with aimock as the model. */
describe('the HTTP API', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let client: ForgeClient;
  const ledger: unknown[] = [];
  let release: (() => void) | undefined;
  let arrived: (() => void) | undefined;

  /** Resolves once the run service no longer runs `runId`: its store copy is complete. */
  async function settled(runId: string): Promise<void> {
    for await (const _event of runtime.runs.eventsAfter(runId, Number.MAX_SAFE_INTEGER - 1)) {
      // Nothing after that seq: the loop ends when the run's feed closes.
    }
  }

  beforeAll(async () => {
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-api-'));
    mock.on({ userMessage: 'a quick question', hasToolResult: false }, { toolCalls: [{ id: 'lookup_1', name: 'lookup', arguments: { key: 'forge' } }] });
    mock.on({ toolCallId: 'lookup_1' }, { content: 'Forge is an agent engine.' });
    mock.on({ userMessage: 'chat: what is forge?', hasToolResult: false }, { toolCalls: [{ id: 'chat_lookup', name: 'lookup', arguments: { key: 'forge' } }] });
    mock.on({ toolCallId: 'chat_lookup' }, { content: 'An agent engine.' });
    mock.on({ userMessage: 'chat: and again?', hasToolResult: false }, { content: 'Still an agent engine.' });
    mock.on({ userMessage: 'write to the ledger', hasToolResult: false }, { toolCalls: [{ id: 'ledger_1', name: 'ledger_write', arguments: { entry: 'paid' } }] });
    mock.on({ toolCallId: 'ledger_1' }, { content: 'Written.' });
    mock.on({ userMessage: 'a slow question', hasToolResult: false }, { toolCalls: [{ id: 'slow_1', name: 'lookup', arguments: { key: 'slow' } }] });
    // The answer after the tool result waits until the test has read part of the stream.
    mock.addFixture({
      match: { toolCallId: 'slow_1' },
      response: () =>
        new Promise((resolve) => {
          release = () => resolve({ content: 'Slow answer.' });
          arrived?.();
        }),
    });
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_REQUIRE_APPROVAL: 'ledger_write' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(
      defineTool({ name: 'lookup', description: 'Looks a key up.', inputSchema: z.object({ key: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ key }) => ({ key, fact: `fact about ${key}` }) }),
    );
    runtime.registry.register(
      defineTool({
        name: 'ledger_write',
        description: 'Writes to the ledger.',
        inputSchema: z.object({ entry: z.string() }),
        risk: 'medium',
        sideEffect: 'write',
        execute: async (input) => {
          ledger.push(input);
          return 'ok';
        },
      }),
    );
    server = await serveApi(runtime, { port: 0 });
    client = new ForgeClient({ baseUrl: server.listener.origin });
  });
  afterAll(async () => {
    release?.();
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('answers health and readiness, and documents every route in its OpenAPI document', async () => {
    expect(await (await fetch(`${server.listener.origin}/health`)).json()).toMatchObject({ status: 'ok' });
    expect(await (await fetch(`${server.listener.origin}/ready`)).json()).toEqual({ status: 'ready', active_runs: 0 });
    const document = (await (await fetch(`${server.listener.origin}/api/v1/openapi.json`)).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    for (const route of apiRoutes) {
      const documented = (route.root === true ? route.path : `/api/v1${route.path}`).replace(/:([a-z_]+)/g, '{$1}');
      expect(document.paths[documented]?.[route.method], `${route.method} ${documented}`).toBeDefined();
    }
  });

  it('starts a run, streams every event it records, and lists runs a page at a time', async () => {
    const started = await client.startRun({ task: 'a quick question', model: MODEL });
    const read = await client.readEvents(started.run_id);
    expect(read.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Forge is an agent engine.' });
    expect(read.events.map((event) => event.seq)).toEqual(read.events.map((_, index) => index));
    await settled(started.run_id);
    expect(read.events).toEqual(await runtime.store.events.list(started.run_id));
    expect(await client.getRun(started.run_id)).toMatchObject({ status: 'completed', halt_reason: 'final_answer', llm_calls: 2 });

    const second = await client.startRun({ task: 'a quick question', model: MODEL });
    await client.readEvents(second.run_id);
    const first = await client.listRuns({ limit: 1 });
    expect(first.runs.map((run) => run.run_id)).toEqual([second.run_id]);
    expect(first.next_cursor).toBe(second.run_id);
    const next = await client.listRuns({ limit: 1, cursor: first.next_cursor! });
    expect(next.runs.map((run) => run.run_id)).toEqual([started.run_id]);
  });

  it('a client that reconnects with Last-Event-ID gets exactly the events it missed', async () => {
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const started = await client.startRun({ task: 'a slow question', model: MODEL });
    const controller = new AbortController();
    const firstPart: ForgeEvent[] = [];
    const reading = client.readEvents(started.run_id, { signal: controller.signal, onEvent: (event) => firstPart.push(event) });
    await waiting;
    // The run waits at the model; the reader has what happened so far and goes away.
    controller.abort();
    const partial = await reading;
    expect(partial.ended).toBe('aborted');
    expect(partial.events.length).toBeGreaterThan(2);
    release!();
    const rest = await client.readEvents(started.run_id, { afterSeq: partial.lastSeq });
    const all = [...partial.events, ...rest.events];
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index));
    await settled(started.run_id);
    expect(all).toEqual(await runtime.store.events.list(started.run_id));
    expect(all.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Slow answer.' });
  });

  it('a call that needs approval pauses the run; approving through the API runs it once and the run goes on', async () => {
    const started = await client.startRun({ task: 'write to the ledger', model: MODEL });
    const paused = await client.readEvents(started.run_id);
    expect(paused.events.at(-1)).toMatchObject({ type: 'run-pause', waiting_on: ['ledger_1'] });
    expect(await client.getRun(started.run_id)).toMatchObject({ status: 'waiting', halt_reason: 'awaiting_approval' });
    const pending = (await client.listApprovals()).filter((approval) => approval.run_id === started.run_id);
    expect(pending).toEqual([expect.objectContaining({ call_id: 'ledger_1', tool: 'ledger_write', status: 'pending' })]);
    expect(ledger).toEqual([]);

    const denyWithoutReason = await client.answerApproval(started.run_id, 'ledger_1', 'deny').catch((error: unknown) => error);
    expect(denyWithoutReason).toBeInstanceOf(ForgeApiError);
    expect((denyWithoutReason as ForgeApiError).status).toBe(400);

    const answered = await client.answerApproval(started.run_id, 'ledger_1', 'approve', { digest: pending[0]!.input_digest.slice(0, 12) });
    expect(answered).toMatchObject({ approval: { status: 'approved' }, resumed: true });
    const rest = await client.readEvents(started.run_id, { afterSeq: paused.lastSeq });
    expect(rest.events[0]).toMatchObject({ type: 'run-resume', pending: ['ledger_1'] });
    expect(rest.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Written.' });
    expect(ledger).toEqual([{ entry: 'paid' }]);
    const again = await client.answerApproval(started.run_id, 'ledger_1', 'approve').catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 409, code: 'ApprovalAnswerError' });
  });

  it('chats: a message streams its reply with every tool call, and the conversation keeps both turns', async () => {
    const conversation = await client.createConversation('about forge');
    const first = await client.sendMessage(conversation.conversation_id, 'chat: what is forge?', { model: MODEL });
    const reply = await client.readEvents(first.run_id);
    const types = reply.events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['tool-call-start', 'tool-result', 'assistant-text', 'run-end']));
    expect(reply.events.find((event) => event.type === 'tool-call-start')).toMatchObject({ tool: 'lookup', input: { key: 'forge' } });
    expect(reply.events.at(-1)).toMatchObject({ type: 'run-end', answer: 'An agent engine.', status: 'completed' });
    const second = await client.sendMessage(conversation.conversation_id, 'chat: and again?', { model: MODEL });
    await client.readEvents(second.run_id);
    await settled(second.run_id);
    const detail = await client.getConversation(conversation.conversation_id);
    expect(detail.conversation.title).toBe('about forge');
    expect(detail.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(new Set(detail.messages.map((message) => message.run_id))).toEqual(new Set([first.run_id, second.run_id]));
    // The second run was shown the first turn.
    const seen = mock.getRequests().filter((request) => JSON.stringify(request.body).includes('chat: and again?')).at(-1);
    expect(JSON.stringify(seen?.body)).toContain('An agent engine.');
    expect((await client.listConversations()).map((listed) => listed.conversation_id)).toContain(conversation.conversation_id);
    const missing = await client.sendMessage('no-such-conversation', 'hello').catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'NotFoundError' });
  });

  it('refuses bad requests in the error envelope, with a hint', async () => {
    const invalid = await fetch(`${server.listener.origin}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: '', extra: 1 }) });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { error: { name: string; message: string; hint: string } };
    expect(body.error).toMatchObject({ name: 'InvalidRequest', hint: expect.any(String) });
    expect(body.error.message).toContain('task');
    const missing = await client.getRun('nosuchrun').catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'NotFoundError' });
    const unknownTools = await client.startRun({ task: 'x', model: MODEL, tools: ['no_such_tool'] }).catch((error: unknown) => error);
    expect(unknownTools).toMatchObject({ status: 400, code: 'UnknownToolsError' });
    const noRoute = await fetch(`${server.listener.origin}/api/v1/nothing-here`);
    expect(noRoute.status).toBe(404);
    expect(((await noRoute.json()) as { error: { name: string } }).error.name).toBe('NotFound');
    const badCursor = await fetch(`${server.listener.origin}/api/v1/runs/x/events`, { headers: { 'last-event-id': 'abc' } });
    expect(badCursor.status).toBe(404);
  });
});

/** One server for the API and Forge's MCP endpoint, both behind the admin password. */
describe('the HTTP API with a password, and /mcp beside it', () => {
  const password = 'correct-horse-battery-staple';
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-api-auth-'));
    runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(defineTool({ name: 'lookup', description: 'Looks a key up.', inputSchema: z.object({ key: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ key }) => ({ key, fact: `fact about ${key}` }) }));
    server = await serveApi(runtime, { port: 0, token: password, mcp: { exposedTools: ['lookup'], publishedSkills: [] } });
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('refuses a request without the password, and answers one with it', async () => {
    const anonymous = await new ForgeClient({ baseUrl: server.listener.origin }).listRuns().catch((error: unknown) => error);
    expect(anonymous).toMatchObject({ status: 401 });
    const wrong = await new ForgeClient({ baseUrl: server.listener.origin, token: 'not-the-password-at-all' }).listRuns().catch((error: unknown) => error);
    expect(wrong).toMatchObject({ status: 401 });
    expect(await new ForgeClient({ baseUrl: server.listener.origin, token: password }).listRuns()).toEqual({ runs: [], next_cursor: null });
  });

  it('slows password guessing: past 10 wrong passwords a minute an address is refused, the right one too, while other addresses go on', async () => {
    const { request: httpRequest } = await import('node:http');
    const from = (localAddress: string, token: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${server.listener.origin}/api/v1/runs`, { localAddress, headers: { authorization: `Bearer ${token}` } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess += 1) statuses.push(await from('127.0.0.9', `wrong-password-guess-${guess}`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // A right guess now tells the guesser nothing.
    expect(await from('127.0.0.9', password)).toBe(429);
    expect(await from('127.0.0.10', password)).toBe(200);
  });

  it('serves the exposed tools over MCP at /mcp, as recorded runs', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const refused = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(`${server.listener.origin}/mcp`)))).rejects.toThrow();
    const client = new Client({ name: 'api-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.listener.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${password}` } } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup']);
      const called = await client.callTool({ name: 'lookup', arguments: { key: 'forge' } });
      expect(JSON.stringify(called.content)).toContain('fact about forge');
      const runs = await new ForgeClient({ baseUrl: server.listener.origin, token: password }).listRuns();
      expect(runs.runs).toEqual([expect.objectContaining({ kind: 'tool-call', status: 'completed' })]);
    } finally {
      await client.close();
    }
  });
});
