import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock, type ChatCompletionRequest, type FixtureResponse } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/core/index.js';
import { openRuntime, runSkill, runTask, type ForgeRuntime } from '../src/compose/index.js';
import { SkillInputError, type SkillDocument } from '../src/skills/index.js';

const customers = [
  { id: 'c-101', name: 'alicia', email: 'alicia@example.com', plan: 'free' },
  { id: 'c-102', name: 'alice', email: 'alice@example.com', plan: 'pro' },
  { id: 'c-207', name: 'bob', email: 'bob@example.org', plan: 'team' },
  { id: 'c-208', name: 'bobby', email: 'bobby@example.net', plan: 'free' },
];
const sentEmails: { to: string; subject: string }[] = [];

const findCustomer = defineTool({
  name: 'find_customer',
  description: 'Finds customers by name (fuzzy: the first three letters match).',
  inputSchema: z.object({ name: z.string() }),
  risk: 'low',
  sideEffect: 'read',
  async execute({ name }) {
    return { matches: customers.filter((customer) => customer.name.startsWith(name.slice(0, 3))).map(({ id, name: customerName }) => ({ id, name: customerName })) };
  },
});

const getCustomerV1 = defineTool({
  name: 'get_customer',
  description: 'Fetches a customer record by id.',
  inputSchema: z.object({ id: z.string() }),
  risk: 'low',
  sideEffect: 'read',
  async execute({ id }) {
    const customer = customers.find((candidate) => candidate.id === id);
    if (customer === undefined) throw new Error(`no customer ${id}`);
    return customer;
  },
});

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  inputSchema: z.object({ to: z.string(), subject: z.string() }),
  risk: 'low',
  sideEffect: 'write',
  async execute(email) {
    sentEmails.push(email);
    return { sent: true, to: email.to };
  },
});

function lastToolText(request: ChatCompletionRequest): string {
  const last = request.messages.at(-1);
  return last?.role === 'tool' && typeof last.content === 'string' ? last.content : '';
}

/** The recorded reasoning: look the customer up, fetch the record by the id it found, email the address on the record. */
function chainAgent(request: ChatCompletionRequest): FixtureResponse {
  const last = lastToolText(request);
  const usage = { prompt_tokens: Math.ceil(JSON.stringify(request.messages).length / 4), completion_tokens: 20 };
  if (last === '') return { toolCalls: [{ id: 'call_1', name: 'find_customer', arguments: JSON.stringify({ name: 'alice' }) }], usage };
  if (last.includes('"matches"')) return { toolCalls: [{ id: 'call_2', name: 'get_customer', arguments: JSON.stringify({ id: 'c-102' }) }], usage };
  if (last.includes('"plan"')) return { toolCalls: [{ id: 'call_3', name: 'send_email', arguments: JSON.stringify({ to: 'alice@example.com', subject: 'Your account summary' }) }], usage };
  return { content: 'Sent the account summary to alice@example.com.', usage };
}

describe('skills: a three-step dependency chain (look up an id, fetch the record, act on a field) replays through the binding map', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let runtime: ForgeRuntime;
  let home: string;
  let skill: SkillDocument;

  beforeAll(async () => {
    await mock.start();
    mock.on({ predicate: (request) => (request.tools?.length ?? 0) > 0 }, chainAgent);
    home = await mkdtemp(path.join(tmpdir(), 'forge-chain-'));
    runtime = await openRuntime({ FORGE_HOME: home, FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` });
    for (const tool of [findCustomer, getCustomerV1, sendEmail]) runtime.registry.register(tool);
    const recorded = await runTask(runtime, { task: 'Email the account summary to customer alice', maxRetries: 0 });
    expect(recorded).toMatchObject({ status: 'completed', llm_calls: 4 });
    skill = (await runtime.skills.saveFromRun(recorded.run_id, { name: 'email-account-summary', constants: ['steps[2].subject'] })).document;
  });

  afterAll(async () => {
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('binds the id to the lookup result (keyed by the name) and the address to the record', () => {
    expect(Object.keys(skill.variables_schema.properties)).toEqual(['name']);
    expect(skill.steps.map((step) => step.arguments)).toEqual([
      [{ path: 'name', binding: { kind: 'input', name: 'name' } }],
      [{ path: 'id', binding: { kind: 'selected', selection: 'match', field: 'id' } }],
      [
        { path: 'to', binding: { kind: 'result', step: 1, path: 'email' } },
        { path: 'subject', binding: { kind: 'constant', value: 'Your account summary', pinned: true } },
      ],
    ]);
    expect(skill.steps.map((step) => step.side_effect)).toEqual(['read', 'read', 'write']);
    expect(skill.selections).toEqual([{ name: 'match', cardinality: 'one', steps: [0], collection: 'matches[*]', field: 'id', scoring: 'none', conditions: [{ field: 'name', operator: 'equals', operand: { input: 'name' } }], recorded: ['c-102'] }]);
  });

  it('replays for another customer with zero model calls, every dependent value by heuristic', async () => {
    const requestsBefore = mock.getRequests().length;
    const replay = await runSkill(runtime, { skill: 'email-account-summary', inputs: { name: 'bob' } });

    expect(replay).toMatchObject({ status: 'completed', mode: 'guided', llm_calls: 0 });
    expect(mock.getRequests().length).toBe(requestsBefore);
    expect(replay.steps.map((step) => step.arguments)).toEqual([{ name: 'bob' }, { id: 'c-207' }, { to: 'bob@example.org', subject: 'Your account summary' }]);
    expect(replay.steps.flatMap((step) => step.resolutions.map((resolution) => resolution.strategy))).toEqual(['user_input', 'heuristic', 'heuristic', 'constant']);
    expect(replay.steps.flatMap((step) => step.resolutions.map((resolution) => resolution.proven))).toEqual([true, true, true, true]);
    expect(replay.writes).toEqual([{ step: 2, tool: 'send_email', arguments: { to: 'bob@example.org', subject: 'Your account summary' }, made: true, ok: true, error: null }]);
    expect(sentEmails.at(-1)).toEqual({ to: 'bob@example.org', subject: 'Your account summary' });
  });

  it('names the variable when --input is missing, unknown or of the wrong type', async () => {
    const missing = await runSkill(runtime, { skill: 'email-account-summary', inputs: {} }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SkillInputError);
    expect(missing).toMatchObject({ variable: 'name', message: 'Input "name": is required but missing.' });

    const unknown = await runSkill(runtime, { skill: 'email-account-summary', inputs: { name: 'bob', nmae: 'bob' } }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ name: 'SkillInputError', variable: 'nmae', message: 'Input "nmae": is not an input of skill "email-account-summary".' });
    expect((unknown as SkillInputError).hint).toContain('name (string, required');

    const wrongType = await runSkill(runtime, { skill: 'email-account-summary', inputs: { name: { first: 'bob' } } }).catch((error: unknown) => error);
    expect(wrongType).toMatchObject({ name: 'SkillInputError', variable: 'name', message: 'Input "name": expected text, got {"first":"bob"}.' });
    expect(await runtime.store.runs.list()).toHaveLength(2);
  });

  it('marks the skill stale when a replay breaks its output contract, even though every call succeeded', async () => {
    runtime.registry.unregister('send_email');
    runtime.registry.register(defineTool({ ...sendEmail, description: 'Sends an email (now answers with nothing).', execute: async () => ({}) }));

    const replay = await runSkill(runtime, { skill: 'email-account-summary', inputs: { name: 'alice' } });

    expect(replay.steps.map((step) => step.ok)).toEqual([true, true, true]);
    expect(replay.status).toBe('failed');
    expect(replay.stale).toBe('output contract failed: step 2 result lacks "sent", "to"');
    expect(await runtime.store.skills.get('email-account-summary')).toMatchObject({ status: 'stale', staleReason: replay.stale });
    expect((await runtime.store.events.list(replay.run_id)).filter((event) => event.type === 'skill-stale')).toHaveLength(1);
  });

  it('refuses to replay once a tool changed its schema, and marks the skill stale with the reason', async () => {
    const sentBefore = sentEmails.length;
    runtime.registry.unregister('get_customer');
    runtime.registry.register(
      defineTool({
        name: 'get_customer',
        description: 'Fetches a customer record by id (v2).',
        inputSchema: z.object({ customer_id: z.string() }),
        risk: 'low',
        sideEffect: 'read',
        async execute({ customer_id }) {
          return getCustomerV1.execute({ id: customer_id }, undefined as never);
        },
      }),
    );

    const replay = await runSkill(runtime, { skill: 'email-account-summary', inputs: { name: 'alice' } });

    expect(replay.status).toBe('failed');
    expect(replay.steps).toEqual([]);
    expect(replay.error).toMatchObject({ name: 'SkillStaleError' });
    expect(replay.error?.message).toContain('tool "get_customer" changed its input schema since the skill was recorded');
    expect(await runtime.store.skills.get('email-account-summary')).toMatchObject({ status: 'stale', staleReason: expect.stringContaining('get_customer') });
    const events = await runtime.store.events.list(replay.run_id);
    expect(events.map((event) => event.type)).toEqual(['run-start', 'skill-stale', 'run-end']);
    expect(sentEmails.length).toBe(sentBefore);
  });
});
