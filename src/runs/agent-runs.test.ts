import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../core/index.js';
import { agentServiceOf } from './agent-service-of.js';
import { runAgentTask } from './run-shortcuts.js';
import { openRuntime, type ForgeRuntime } from './task-runs.js';

function ledger(name: string, sideEffect: 'read' | 'write', calls: string[]): AnyTool {
  return defineTool({
    name,
    description: `The ledger's ${name}.`,
    inputSchema: z.object({ entry: z.string() }),
    risk: 'low',
    sideEffect,
    async execute(input) {
      calls.push(`${name}:${input.entry}`);
      return { ok: true };
    },
  });
}

const definition = (prompt: string, tools: Record<string, string>) => ({
  version: 1,
  name: 'Bookkeeper',
  slug: 'bookkeeper',
  model: { temperature: 0.3, max_tokens: 500 },
  tools,
  parameters: [
    { name: 'account', type: 'text', required: true, description: 'The account to look at.' },
    { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'quick' },
    { name: 'limit', type: 'number', default: 3 },
  ],
  system_prompt: prompt,
});

/** Agent definitions run by version: rendered prompt, offered tools, the agent's policy at dispatch, the version pinned. */
describe('runAgentTask', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  const calls: string[] = [];

  beforeAll(async () => {
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-agent-runs-'));
    // The model tries the tool the agent disabled (it was not offered, so this is a misbehaving model), then reads.
    mock.on({ userMessage: 'close the books', hasToolResult: false }, { toolCalls: [{ id: 'w1', name: 'ledger_write', arguments: { entry: 'wipe' } }] });
    mock.on({ toolCallId: 'w1' }, { toolCalls: [{ id: 'r1', name: 'ledger_read', arguments: { entry: 'balance' } }] });
    mock.on({ toolCallId: 'r1' }, { content: 'The books are closed.' });
    // Structured outputs: a wrong first answer gets one retry; a second wrong one fails the run with it attached.
    const asked = (request: unknown, task: string) => JSON.stringify(request).includes(task);
    mock.on({ userMessage: 'does not match the output this agent must return', predicate: (request) => asked(request, 'count the entries') }, { content: '{"count": 5, "note": "five entries"}' });
    mock.on({ userMessage: 'does not match the output this agent must return', predicate: (request) => asked(request, 'count stubbornly') }, { content: 'still many' });
    mock.on({ userMessage: 'count the entries', hasToolResult: false }, { content: 'about five, I think' });
    mock.on({ userMessage: 'count stubbornly', hasToolResult: false }, { content: 'many' });
    // A chat turn: what the rules cannot read goes to one extraction call, inside the run.
    const extracting = (request: unknown) => JSON.stringify(request).includes("read the values of an agent's parameters");
    mock.on({ userMessage: 'books of the Lisbon branch', predicate: extracting }, { content: '{"account": "LISBON-1", "limit": null}' });
    mock.on({ userMessage: 'books of the Lisbon branch', predicate: (request) => !extracting(request) }, { content: 'Lisbon is balanced.' });
    mock.on({ userMessage: 'how are the books', predicate: extracting }, { content: '{"account": null, "limit": null}' });
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(ledger('ledger_read', 'read', calls));
    runtime.registry.register(ledger('ledger_write', 'write', calls));
    runtime.registry.register(ledger('ledger_audit', 'read', calls));
  });
  afterAll(async () => {
    await runtime.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('runs the version named, with its prompt, only its tools, and its disabled tool refused at dispatch', async () => {
    const agents = await agentServiceOf(runtime);
    await agents.create(definition('v1 prompt for {{ params.account }}', { ledger_read: 'allowed', ledger_write: 'allowed' }), { author: 'ada', userId: null });
    await agents.edit('bookkeeper', definition('Look at {{ params.account }} ({{ params.depth }}, at most {{ params.limit }}).{% for tool in system.tools %} [{{ tool.name }}]{% endfor %}', { ledger_read: 'allowed', ledger_write: 'disabled' }), { author: 'ada', userId: null, message: 'no writes' });
    await agents.rollback('bookkeeper', 1, { author: 'ada', userId: null });

    const result = await runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'close the books', model: 'openai:gpt-4.1-mini', params: { account: 'ACME-7', limit: '9' }, maxRetries: 0 });
    expect(result).toMatchObject({ status: 'completed', answer: 'The books are closed.' });
    expect(calls).toEqual(['ledger_read:balance']);
    // Not in the run's tool set, so dispatch refuses it by name; and the agent's policy scope blocks it on any path.
    expect(result.steps.find((step) => step.call_id === 'w1')).toMatchObject({ ok: false, error: { name: 'ToolNotFoundError' } });
    expect(await runtime.policy.decide({ runId: result.run_id, callId: 'w1', tool: 'ledger_write', risk: 'low', sideEffect: 'write', input: { entry: 'wipe' }, scopes: ['agent:bookkeeper', 'agent:bookkeeper.v2'] })).toMatchObject({ decision: 'block', rule: expect.stringContaining('agent:bookkeeper.v2 v1') });
    expect((await runtime.runs.get(result.run_id)).agent).toEqual({ slug: 'bookkeeper', version: 2 });

    const request = mock.getRequests().find((each) => JSON.stringify(each.body).includes('close the books'))!;
    const body = JSON.stringify(request.body);
    expect(body).toContain('Look at ACME-7 (quick, at most 9). [ledger_read]');
    expect(body).not.toContain('v1 prompt');
    // The version's sampling settings reach the model.
    expect(request.body).toMatchObject({ temperature: 0.3 });
    expect(body).toMatch(/"max_(completion_)?tokens":500/);
    // And the run's checkpoint keeps them with its model, so a resume in any process samples the same way.
    expect(((await runtime.store.runStates.get(result.run_id)) as { model: unknown }).model).toEqual({ slug: 'openai:gpt-4.1-mini', base_url: null, settings: { temperature: 0.3, max_output_tokens: 500 } });
    const offered = ((request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);
    expect(offered).toEqual(['ledger_read']);
    const events = await runtime.store.events.list(result.run_id);
    expect(events.find((event) => event.type === 'policy-decision' && event.call_id === 'r1')).toMatchObject({ decision: 'allow', rule: expect.stringContaining('agent:bookkeeper.v2 v1') });
  });

  it('asks for a required parameter instead of guessing, and refuses a value of the wrong type, before any model call', async () => {
    const before = mock.getRequests().length;
    await expect(runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'close the books', model: 'openai:gpt-4.1-mini' })).rejects.toMatchObject({ name: 'AgentParameterError', missing: ['account'] });
    await expect(runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'close the books', model: 'openai:gpt-4.1-mini', params: { account: 'A', limit: 'many' } })).rejects.toThrow('"many" is not a number');
    await expect(runAgentTask(runtime, { agent: 'bookkeeper@9', task: 'x' })).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(mock.getRequests().length).toBe(before);
  });

  it('reads a parameter the task states plainly, without a model call, and --param wins over it', async () => {
    mock.on({ userMessage: 'settle up', hasToolResult: false }, { content: 'Read it.' });
    const before = mock.getRequests().length;
    const read = await runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'settle up, account: ACME-9, depth: thorough', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(read).toMatchObject({ status: 'completed', llm_calls: 1 });
    expect(mock.getRequests().length - before).toBe(1);
    expect(JSON.stringify(mock.getRequests().at(-1)!.body)).toContain('Look at ACME-9 (thorough, at most 3).');
    await runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'settle up, account: ACME-9', model: 'openai:gpt-4.1-mini', params: { account: 'ACME-1' }, maxRetries: 0 });
    expect(JSON.stringify(mock.getRequests().at(-1)!.body)).toContain('Look at ACME-1 (quick, at most 3).');
    await expect(runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'settle up, depth: sideways', model: 'openai:gpt-4.1-mini', params: { account: 'A' } })).rejects.toMatchObject({ name: 'AgentParameterError', message: expect.stringContaining('depth') });
  });

  it('retries a structured answer that does not match the outputs once, with the problems named, then completes (counted calls)', async () => {
    const agents = await agentServiceOf(runtime);
    await agents.create({ version: 1, name: 'Counter', slug: 'counter', outputs: [{ name: 'count', type: 'number' }, { name: 'note', type: 'text' }], system_prompt: 'Count.' }, { author: 'ada', userId: null });
    const ok = await runAgentTask(runtime, { agent: 'counter', task: 'count the entries', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(ok).toMatchObject({ status: 'completed', llm_calls: 2, answer: '{"count": 5, "note": "five entries"}' });
    const retry = mock.getRequests().filter((each) => JSON.stringify(each.body).includes('does not match the output this agent must return'));
    expect(retry).toHaveLength(1);
    expect(JSON.stringify(retry[0]!.body)).toContain('count');

    // The retried answer is wrong again: the run fails clearly, the invalid answer attached, after exactly two calls.
    const before = mock.getRequests().length;
    const failed = await runAgentTask(runtime, { agent: 'counter', task: 'count stubbornly', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(failed).toMatchObject({ status: 'failed', answer: 'still many', error: { name: 'AgentOutputError' } });
    expect(mock.getRequests().length - before).toBe(2);
  });

  it('in a chat, reads what the rules cannot with one model call inside the run, and asks for what is still missing', async () => {
    const read = await runAgentTask(runtime, { agent: 'bookkeeper@2', context: 'chat', task: 'look at the books of the Lisbon branch', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(read).toMatchObject({ status: 'completed', answer: 'Lisbon is balanced.', llm_calls: 2 });
    expect(JSON.stringify(mock.getRequests().at(-1)!.body)).toContain('Look at LISBON-1 (quick, at most 3).');

    const asked = await runAgentTask(runtime, { agent: 'bookkeeper@2', context: 'chat', task: 'how are the books?', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    expect(asked).toMatchObject({ status: 'completed', llm_calls: 1, answer: expect.stringContaining('account') });
    const messages = await runtime.store.conversations.listMessages(asked.conversation_id);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it("never lets an agent's allowed relax the installation's block", async () => {
    await runtime.policies.setRule('installation', { tool: 'ledger_read', decision: 'block' }, { author: 'admin' });
    calls.length = 0;
    const result = await runAgentTask(runtime, { agent: 'bookkeeper@2', task: 'close the books', model: 'openai:gpt-4.1-mini', params: { account: 'ACME-7' }, maxRetries: 0 });
    expect(calls).toEqual([]);
    expect(result.steps.find((step) => step.call_id === 'r1')).toMatchObject({ ok: false, error: { name: 'PolicyBlockedError' } });
    await runtime.policies.removeRule('installation', { tool: 'ledger_read' }, { author: 'admin' });
  });
});
