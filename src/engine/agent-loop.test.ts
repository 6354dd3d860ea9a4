import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ForgeEvent, type GuardedFetch } from '../core/index.js';
import { InProcessEventBus, createRunEmitter } from '../events/index.js';
import { CostMeter, resolveModel } from '../llm/index.js';
import { ToolRegistry } from '../tools/index.js';
import { runAgent } from './agent-loop.js';
import { builtInPolicy } from '../policy/index.js';
import { refuseApprovals } from '../policy/approvals/refuse-approvals.js';

const noNetwork: GuardedFetch = async () => {
  throw new Error('no network in this test');
};

function lookupTool(calls: string[]) {
  return defineTool({
    name: 'lookup',
    description: 'Looks up a fact by key.',
    inputSchema: z.object({ key: z.string() }),
    risk: 'low',
    sideEffect: 'read',
    async execute({ key }) {
      calls.push(key);
      if (key === 'boom') throw new Error('the lookup backend exploded');
      return { key, fact: `fact about ${key}` };
    },
  });
}

async function run(task: string, slug: string, env: Record<string, string>, maxIterations = 5) {
  const bus = new InProcessEventBus();
  const events: ForgeEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const calls: string[] = [];
  const registry = new ToolRegistry();
  registry.register(lookupTool(calls));
  const emitter = createRunEmitter(bus, `run-${Math.random().toString(36).slice(2)}`);
  const result = await runAgent({
    task,
    model: resolveModel(slug, env),
    registry,
    emitter,
    meter: new CostMeter(emitter.runId),
    policy: builtInPolicy,
    approvals: refuseApprovals,
    toolContext: { fetch: noNetwork, utilityModel: undefined },
    maxIterations,
    maxRetries: 0,
  });
  return { result, events, calls };
}

describe('agent loop over real wire formats (aimock)', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let openai: Record<string, string>;
  let anthropic: Record<string, string>;

  beforeAll(async () => {
    await mock.start();
    openai = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` };
    anthropic = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: mock.url };
    mock.on(
      { userMessage: 'parallel facts', hasToolResult: false },
      { toolCalls: [{ id: 'call_a', name: 'lookup', arguments: { key: 'alpha' } }, { id: 'call_b', name: 'lookup', arguments: { key: 'beta' } }], usage: { prompt_tokens: 120, completion_tokens: 30, input_tokens: 120, output_tokens: 30 } },
    );
    mock.on(
      { userMessage: 'parallel facts', hasToolResult: true },
      { content: 'alpha and beta are known.', usage: { prompt_tokens: 200, completion_tokens: 12, input_tokens: 200, output_tokens: 12 } },
    );
    mock.on({ userMessage: 'broken tool', hasToolResult: false }, { toolCalls: [{ id: 'call_x', name: 'lookup', arguments: { key: 'boom' } }] });
    mock.on({ userMessage: 'broken tool', hasToolResult: true }, { content: 'The backend failed.' });
    mock.on({ userMessage: 'loop forever' }, { toolCalls: [{ name: 'lookup', arguments: { key: 'again' } }] });
  });
  afterAll(async () => {
    await mock.stop();
  });

  for (const format of ['openai', 'anthropic'] as const) {
    it(`runs parallel tool calls and wires tool-call ids (${format})`, async () => {
      const slug = format === 'openai' ? 'openai:gpt-4.1-mini' : 'anthropic:claude-sonnet-4-6';
      const { result, events, calls } = await run('parallel facts please', slug, format === 'openai' ? openai : anthropic);
      expect(result.status).toBe('completed');
      expect(result.halt_reason).toBe('final_answer');
      expect(result.answer).toBe('alpha and beta are known.');
      expect(result.llm_calls).toBe(2);
      expect(result.tokens).toEqual({ input: 320, output: 42 });
      expect(calls.sort()).toEqual(['alpha', 'beta']);
      expect(result.steps.map((step) => step.call_id).sort()).toEqual(['call_a', 'call_b']);
      // The second request carried both tool results under the ids the model chose.
      const second = mock.getRequests().filter((request) => JSON.stringify(request.body).includes('parallel facts')).at(-1)!;
      const body = JSON.stringify(second.body);
      expect(second.body).toMatchObject({ stream: true });
      expect(second.path).toBe(format === 'openai' ? '/v1/chat/completions' : '/v1/messages');
      expect(body).toContain('call_a');
      expect(body).toContain('call_b');
      expect(body).toContain('fact about alpha');
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
      expect(events.filter((event) => event.type === 'model-call')).toHaveLength(2);
      expect(events.at(-1)).toMatchObject({ type: 'run-end', llm_calls: 2, tokens: { input: 320, output: 42 } });
    });
  }

  it('returns tool failures to the model as errors, not crashes', async () => {
    const { result, events } = await run('broken tool now', 'openai:gpt-4.1-mini', openai);
    expect(result.status).toBe('completed');
    expect(result.steps[0]).toMatchObject({ ok: false, tool: 'lookup' });
    expect(result.steps[0]!.output).toContain('the lookup backend exploded');
    expect(events.find((event) => event.type === 'tool-error')).toBeDefined();
    const last = mock.getRequests().filter((request) => JSON.stringify(request.body).includes('broken tool')).at(-1)!;
    expect(JSON.stringify(last.body)).toContain('the lookup backend exploded');
  });

  it('halts at the iteration cap and says so', async () => {
    const { result } = await run('loop forever', 'openai:gpt-4.1-mini', openai, 3);
    expect(result.halt_reason).toBe('cap');
    expect(result.status).toBe('failed');
    expect(result.llm_calls).toBe(3);
    expect(result.error?.message).toContain('iteration cap (3)');
  });
});
