import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import type { AgentDefinitionInput } from '../src/agents/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';
// Looks like an OpenAI key; no definition may carry it, and no answer may repeat it.
const SECRET = 'sk-proj-Zq81hVt5Kc0XwB7nLm29RfYa';

const researcherV1 = { version: 1, name: 'Researcher', slug: 'researcher', tools: { lookup: 'allowed' }, system_prompt: 'You research things.' } satisfies AgentDefinitionInput;
const researcherV2 = {
  ...researcherV1,
  parameters: [{ name: 'topic', type: 'text', required: true, description: 'What to research.' }],
  system_prompt: 'You research {{ params.topic }} in depth.',
} satisfies AgentDefinitionInput;

interface ModelRequest {
  readonly body: { messages?: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> };
}

/** Agent definitions over `forge serve --auth accounts`, in process, through the typed client; aimock is the model. */
describe('agent definitions over the HTTP API', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  let ada: ForgeClient;
  let bob: ForgeClient;
  let adaToken: string;
  const ledger: unknown[] = [];

  const refusal = (promise: Promise<unknown>) => promise.then(() => 'no refusal', (error: unknown) => error);
  const requestWith = (text: string) => (mock.getRequests() as unknown as ModelRequest[]).find((request) => JSON.stringify(request.body).includes(text));

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'what is new in the research', hasToolResult: false }, { toolCalls: [{ id: 'lookup_tides', name: 'lookup', arguments: { key: 'tides' } }] });
    mock.on({ toolCallId: 'lookup_tides' }, { content: 'Tides follow the moon.' });
    mock.on({ userMessage: 'bob asks the researcher', hasToolResult: false }, { content: 'An answer for bob.' });
    const extracting = (request: unknown) => JSON.stringify(request).includes("read the values of an agent's parameters");
    mock.on({ userMessage: 'chat about the sea', predicate: extracting }, { content: '{"topic": null}' });
    mock.on({ userMessage: 'record the payment', hasToolResult: false }, { toolCalls: [{ id: 'pay_1', name: 'ledger_write', arguments: { entry: 'paid' } }] });
    mock.on({ toolCallId: 'pay_1' }, { content: 'Recorded.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-agents-api-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_API_RATE_LIMIT: '0' }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(defineTool({ name: 'lookup', description: 'Looks a key up.', inputSchema: z.object({ key: z.string() }), risk: 'low', sideEffect: 'read', execute: async ({ key }) => ({ key, fact: `fact about ${key}` }) }));
    runtime.registry.register(
      defineTool({
        name: 'ledger_write',
        description: 'Writes to the ledger.',
        inputSchema: z.object({ entry: z.string() }),
        // Medium risk runs without asking by default: only the agent's `approval` makes it wait.
        risk: 'medium',
        sideEffect: 'write',
        execute: async (input) => {
          ledger.push(input);
          return 'ok';
        },
      }),
    );
    await runtime.accounts.addUser({ email: 'ada@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    origin = server.listener.origin;
    ada = new ForgeClient({ baseUrl: origin });
    adaToken = (await ada.login('ada@example.com', PASSWORD)).access_token;
    bob = new ForgeClient({ baseUrl: origin });
    await bob.login('bob@example.com', PASSWORD);
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('creates, edits, lists versions, diffs, rolls back, exports YAML and imports it again', async () => {
    const adaId = (await runtime.accounts.requireUser('ada@example.com')).id;
    const created = await ada.createAgent(researcherV1);
    expect(created).toMatchObject({ agent: { slug: 'researcher', active_version: 1, latest_version: 1, user_id: adaId }, version: { version: 1, author: adaId }, definition: { slug: 'researcher', system_prompt: 'You research things.' } });

    const edited = await ada.editAgent('researcher', { definition: researcherV2, message: 'takes a topic' });
    expect(edited).toMatchObject({ agent: { active_version: 2, latest_version: 2 }, version: { version: 2, message: 'takes a topic', author: adaId } });
    expect(edited.changes.map((change) => change.path).sort()).toEqual(['parameters[topic]', 'system_prompt']);
    expect(edited.changes.find((change) => change.path === 'system_prompt')).toEqual({ path: 'system_prompt', before: 'You research things.', after: 'You research {{ params.topic }} in depth.' });
    // The same definition again is nothing to save.
    expect(await refusal(ada.editAgent('researcher', { definition: researcherV2 }))).toMatchObject({ status: 400, code: 'AgentDefinitionError', message: expect.stringContaining('same as version 2') });

    const versions = await ada.agentVersions('researcher');
    expect(versions.versions.map((version) => [version.version, version.changed_fields])).toEqual(expect.arrayContaining([[1, ['(created)']], [2, edited.version.changed_fields]]));
    expect(versions.versions).toHaveLength(2);
    expect((await ada.diffAgent('researcher', 1, 2)).changes).toEqual(edited.changes);
    expect((await ada.diffAgent('researcher', 2, 2)).changes).toEqual([]);
    const noRange = await fetch(`${origin}/api/v1/agents/researcher/diff?from=1`, { headers: { authorization: `Bearer ${adaToken}` } });
    expect(noRange.status).toBe(400);
    expect(await refusal(ada.diffAgent('researcher', 1, 7))).toMatchObject({ status: 404, code: 'NotFoundError' });

    const rolledBack = await ada.rollbackAgent('researcher', 1);
    expect(rolledBack).toMatchObject({ agent: { active_version: 3, latest_version: 3 }, version: { version: 3, message: 'rollback to v1' } });
    expect((await ada.agentVersions('researcher')).active_version).toBe(3);
    expect((await ada.getAgent('researcher')).definition['system_prompt']).toBe('You research things.');
    expect((await ada.getAgent('researcher@2')).definition['parameters']).toEqual([{ name: 'topic', type: 'text', required: true, description: 'What to research.' }]);
    expect(await refusal(ada.rollbackAgent('researcher', 9))).toMatchObject({ status: 404 });
    expect(await refusal(ada.getAgent('Not A Slug'))).toMatchObject({ status: 400, code: 'ConfigurationError' });

    const exported = await fetch(`${origin}/api/v1/agents/researcher%402/export`, { headers: { authorization: `Bearer ${adaToken}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/yaml/);
    const yaml = await exported.text();
    expect(yaml).toBe(await ada.exportAgent('researcher@2'));
    expect(yaml).toContain('system_prompt: You research {{ params.topic }} in depth.');

    // The export imports again: as a new agent, then as the next version of it.
    const copy = await ada.createAgent({ yaml: yaml.replace('slug: researcher', 'slug: researcher-copy'), message: 'from the export' });
    expect(copy).toMatchObject({ agent: { slug: 'researcher-copy' }, version: { version: 1, message: 'from the export' } });
    expect({ ...copy.definition, slug: 'researcher' }).toEqual((await ada.getAgent('researcher@2')).definition);
    const copyEdited = await ada.editAgent('researcher-copy', { yaml: yaml.replace('slug: researcher', 'slug: researcher-copy').replace('in depth.', 'briefly.'), message: 'shorter' });
    expect(copyEdited).toMatchObject({ version: { version: 2, message: 'shorter', changed_fields: ['system_prompt'] } });
    // Creating what exists is a conflict that says how to save it instead.
    expect(await refusal(ada.createAgent({ yaml }))).toMatchObject({ status: 409, code: 'AgentExists', hint: expect.stringContaining('/versions') });
    // A YAML problem names its line.
    expect(await refusal(ada.createAgent({ yaml: 'version: 1\nname: Broken\nslug: broken\nsystem_prompt: x\ntools:\n  lookup: sometimes\n' }))).toMatchObject({ status: 400, code: 'AgentDefinitionError', message: expect.stringContaining('line 6') });
    // A slug cannot change in an edit.
    expect(await refusal(ada.editAgent('researcher-copy', { definition: researcherV1 }))).toMatchObject({ status: 400, code: 'AgentDefinitionError', message: expect.stringContaining('a slug cannot change') });

    expect((await ada.listAgents()).map((agent) => agent.slug)).toEqual(['researcher', 'researcher-copy']);
    expect(await ada.removeAgent('researcher-copy')).toBe('researcher-copy');
    expect(await refusal(ada.getAgent('researcher-copy'))).toMatchObject({ status: 404, code: 'NotFoundError' });
    expect(await refusal(ada.removeAgent('researcher-copy'))).toMatchObject({ status: 404 });

    // The OpenAPI document describes a definition field by field (what a form is built from).
    const document = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(JSON.stringify(document.paths['/api/v1/agents']?.['post']?.requestBody)).toContain('"system_prompt"');
  });

  it('refuses a definition holding a credential (400, the value never repeated), and an export carries none', async () => {
    const before = (await ada.listAgents()).length;
    const asJson = await refusal(ada.createAgent({ ...researcherV1, slug: 'leaky', description: `Uses the key ${SECRET}.` }));
    expect(asJson).toMatchObject({ status: 400, code: 'AgentSecretValueError', message: expect.stringContaining('description') });
    expect(`${(asJson as Error).message} ${(asJson as { hint?: string }).hint}`).not.toContain(SECRET);
    const asYaml = await refusal(ada.createAgent({ yaml: `version: 1\nname: Leaky\nslug: leaky\nsystem_prompt: Use ${SECRET} for everything.\n` }));
    expect(asYaml).toMatchObject({ status: 400, code: 'AgentSecretValueError', message: expect.stringContaining('line 4') });
    expect(`${(asYaml as Error).message} ${(asYaml as { hint?: string }).hint}`).not.toContain(SECRET);
    const inEdit = await refusal(ada.editAgent('researcher', { definition: { ...researcherV2, tools: { lookup: 'allowed' }, description: SECRET } }));
    expect(inEdit).toMatchObject({ status: 400, code: 'AgentSecretValueError' });
    expect((await ada.listAgents()).length).toBe(before);
    expect((await ada.agentVersions('researcher')).versions).toHaveLength(3);

    // A definition stored before the guard existed (written to the store directly) leaves redacted.
    await runtime.store.agents.create('legacy', { name: 'Legacy', definition: { ...researcherV1, name: 'Legacy', slug: 'legacy', description: `Uses ${SECRET}.` }, changedFields: ['(created)'], message: 'old', author: 'ada' }, { userId: null });
    const exported = await ada.exportAgent('legacy');
    expect(exported).not.toContain(SECRET);
    expect(exported).toContain('[redacted]');
    await ada.removeAgent('legacy');
  });

  it('runs researcher@2 with its parameter: pinned to the version, the prompt rendered, only its tools offered, the events read to the end', async () => {
    const started = await ada.runAgent('researcher@2', { task: 'what is new in the research', params: { topic: 'tides' }, model: MODEL });
    expect(started.events_url).toBe(`/api/v1/runs/${started.run_id}/events`);
    const read = await ada.readEvents(started.run_id);
    expect(read.ended).toBe('end');
    expect(read.events.map((event) => event.seq)).toEqual(read.events.map((_, index) => index));
    expect(read.events.find((event) => event.type === 'tool-call-start')).toMatchObject({ tool: 'lookup', input: { key: 'tides' } });
    expect(read.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Tides follow the moon.' });
    // The active version is 1 (rolled back above): the run ran the version it named.
    expect(await ada.getRun(started.run_id)).toMatchObject({ status: 'completed', agent: { slug: 'researcher', version: 2 }, llm_calls: 2 });

    const request = requestWith('what is new in the research')!;
    const system = request.body.messages?.find((message) => message.role === 'system');
    expect(JSON.stringify(system?.content)).toContain('You research tides in depth.');
    expect(JSON.stringify(request.body)).not.toContain('You research things.');
    expect((request.body.tools ?? []).map((tool) => tool.function.name)).toEqual(['lookup']);
  });

  it('a chat message to an agent asks for a required parameter the message does not give, in the conversation', async () => {
    const conversation = await ada.createConversation('the sea');
    const started = await ada.sendMessage(conversation.conversation_id, 'chat about the sea', { agent: 'researcher@2', model: MODEL });
    const read = await ada.readEvents(started.run_id);
    expect(read.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: expect.stringContaining('topic') });
    expect(await ada.getRun(started.run_id)).toMatchObject({ agent: { slug: 'researcher', version: 2 }, llm_calls: 1 });
    const detail = await ada.getConversation(conversation.conversation_id);
    expect(detail.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('a missing, unknown or mistyped parameter is a 400 naming it, before any model call or run', async () => {
    const calls = mock.getRequests().length;
    const runs = (await ada.listRuns({ limit: 200 })).runs.length;
    const missing = await refusal(ada.runAgent('researcher@2', { task: 'research without saying what', model: MODEL }));
    expect(missing).toMatchObject({ status: 400, code: 'AgentParameterError', message: expect.stringContaining('topic') });
    const unknown = await refusal(ada.runAgent('researcher@2', { task: 'x', params: { topic: 'tides', depth: 3 }, model: MODEL }));
    expect(unknown).toMatchObject({ status: 400, code: 'AgentParameterError', message: expect.stringContaining('depth: the agent has no parameter of that name (topic)') });
    expect(await refusal(ada.runAgent('researcher@9', { task: 'x', model: MODEL }))).toMatchObject({ status: 404, code: 'NotFoundError' });
    expect(await refusal(ada.runAgent('nobody', { task: 'x', model: MODEL }))).toMatchObject({ status: 404, code: 'NotFoundError' });
    const empty = await fetch(`${origin}/api/v1/agents/researcher%402/runs`, { method: 'POST', headers: { authorization: `Bearer ${adaToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ task: '' }) });
    expect(empty.status).toBe(400);
    expect(mock.getRequests().length).toBe(calls);
    expect((await ada.listRuns({ limit: 200 })).runs.length).toBe(runs);
  });

  it('a non-admin gets 403 on every admin route and changes nothing, reads agents, and runs one as a run of their own', async () => {
    const bobId = (await runtime.accounts.requireUser('bob@example.com')).id;
    const refusals = [
      await refusal(bob.createAgent({ ...researcherV1, slug: 'bobs-agent' })),
      await refusal(bob.createAgent({ yaml: 'version: 1\nname: Bob\nslug: bobs-agent\nsystem_prompt: x\n' })),
      await refusal(bob.editAgent('researcher', { definition: { ...researcherV2, tools: { '*': 'allowed' } }, message: 'everything' })),
      await refusal(bob.rollbackAgent('researcher', 2)),
      await refusal(bob.removeAgent('researcher')),
    ];
    for (const refused of refusals) expect(refused).toMatchObject({ status: 403, code: 'AdminOnly' });
    expect((await ada.listAgents()).map((agent) => agent.slug)).toEqual(['researcher']);
    expect(await ada.getAgent('researcher')).toMatchObject({ agent: { active_version: 3, latest_version: 3 } });

    expect((await bob.listAgents()).map((agent) => agent.slug)).toEqual(['researcher']);
    expect((await bob.getAgent('researcher@2')).version.version).toBe(2);
    expect(await bob.exportAgent('researcher@2')).toBe(await ada.exportAgent('researcher@2'));
    const started = await bob.runAgent('researcher@2', { task: 'bob asks the researcher', params: { topic: 'rivers' }, model: MODEL });
    expect((await bob.readEvents(started.run_id)).events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'An answer for bob.' });
    expect(await bob.getRun(started.run_id)).toMatchObject({ agent: { slug: 'researcher', version: 2 } });
    expect((await runtime.store.runs.get(started.run_id))?.userId).toBe(bobId);
    expect(JSON.stringify(requestWith('bob asks the researcher')?.body)).toContain('You research rivers in depth.');
  });

  it("an agent's approval access makes its API run wait; the run's owner approves and the tool runs once", async () => {
    await ada.createAgent({ version: 1, name: 'Bookkeeper', slug: 'bookkeeper', tools: { ledger_write: 'approval' }, system_prompt: 'You keep the books.' });
    const started = await bob.runAgent('bookkeeper', { task: 'record the payment', model: MODEL });
    const paused = await bob.readEvents(started.run_id);
    expect(paused.events.at(-1)).toMatchObject({ type: 'run-pause', waiting_on: ['pay_1'] });
    expect(await bob.getRun(started.run_id)).toMatchObject({ status: 'waiting', agent: { slug: 'bookkeeper', version: 1 } });
    expect(ledger).toEqual([]);
    expect(await bob.answerApproval(started.run_id, 'pay_1', 'approve')).toMatchObject({ approval: { status: 'approved' }, resumed: true });
    const rest = await bob.readEvents(started.run_id, { afterSeq: paused.lastSeq });
    expect(rest.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Recorded.' });
    expect(ledger).toEqual([{ entry: 'paid' }]);
  });
});
