import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeEventSchema } from '../src/core/index.js';
import { costOf } from '../src/llm/index.js';
import { readRunLog, totalsFromEvents } from '../src/runs/run-log/index.js';
import { openRuntime, runTask } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { FIXTURE_TEXT } from './fixtures/fixture-web.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const usage = (input: number, output: number) => ({ usage: { prompt_tokens: input, completion_tokens: output, input_tokens: input, output_tokens: output } });

describe('engine end to end: search → read → answer over real wire formats', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    const { mock, web } = world;
    for (const format of ['openai', 'anthropic']) {
      const marker = `How does Forge cache tool results (${format})?`;
      mock.on({ userMessage: marker, hasToolResult: false }, { toolCalls: [{ id: `search_${format}`, name: 'web_search', arguments: { query: 'forge tool result caching' } }], ...usage(100, 20) });
      mock.on({ toolCallId: `search_${format}` }, { toolCalls: [{ id: `read_${format}`, name: 'read_url', arguments: { url: web.pages.article } }], ...usage(400, 25) });
      mock.on({ toolCallId: `read_${format}` }, { content: `Forge keys its cache by tool name and canonical JSON arguments. Source: ${web.pages.article}`, ...usage(900, 60) });
    }
    mock.on({ userMessage: 'And which page did you read?', hasToolResult: false }, { content: 'The caching article.', ...usage(1500, 8) });
  });
  afterAll(async () => {
    await world.close();
  });

  for (const [format, slug] of [['openai', 'openai:gpt-4.1-mini'], ['anthropic', 'anthropic:claude-sonnet-4-6']] as const) {
    it(`runs, counts exactly, logs and stores (${format})`, async () => {
      const runtime = await openRuntime(world.env, world.home);
      const task = `How does Forge cache tool results (${format})?`;
      const result = await runTask(runtime, { task, model: slug, maxRetries: 0 });
      await runtime.close();

      expect(result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', llm_calls: 3, tokens: { input: 1400, output: 105 }, error: null });
      expect(result.cost_usd).toBeCloseTo(costOf(slug, 1400, 105)!, 12);
      expect(result.answer).toContain('canonical JSON');
      expect(result.steps.map((step) => [step.tool, step.call_id, step.ok])).toEqual([
        ['web_search', `search_${format}`, true],
        ['read_url', `read_${format}`, true],
      ]);
      // read_url returned clean markdown: the article's content, none of its page furniture.
      const page = result.steps[1]!.output;
      expect(page).toContain(FIXTURE_TEXT.articleSentence);
      for (const junk of FIXTURE_TEXT.articleJunk) expect(page).not.toContain(junk);
      expect(page).toMatch(/^<untrusted-content-[0-9a-f]{12} source="read_url">\n/);

      // Three streamed requests; each later one carries the previous tool result under its call id.
      const requests = requestsMentioning(world.mock, task);
      expect(requests).toHaveLength(3);
      for (const request of requests) {
        expect(request.path).toBe(format === 'openai' ? '/v1/chat/completions' : '/v1/messages');
        expect(request.body).toMatchObject({ stream: true });
      }
      expect(JSON.stringify(requests[1]!.body)).toContain(`search_${format}`);
      expect(JSON.stringify(requests[2]!.body)).toContain(`read_${format}`);
      expect(JSON.stringify(requests[2]!.body)).toContain('canonical JSON of its arguments');

      // The run log replays into the same totals, and every line is a valid event.
      const log = await readRunLog(result.log_file);
      expect(log.error).toBeUndefined();
      for (const event of log.events) expect(forgeEventSchema.safeParse(event).success).toBe(true);
      const totals = totalsFromEvents(log.events);
      expect(totals).toMatchObject({ llm_calls: result.llm_calls, tokens: result.tokens, status: 'completed', halt_reason: 'final_answer', tool_calls: 2 });
      expect(totals.cost_usd).toBeCloseTo(result.cost_usd!, 12);

      // A fresh store on the same file holds the run, its events, steps, model calls and messages.
      const store = await openStore({ url: runtime.config.databaseUrl });
      try {
        expect(await store.runs.get(result.run_id)).toMatchObject({ status: 'completed', llmCalls: 3, inputTokens: 1400, outputTokens: 105, answer: result.answer });
        expect(await store.events.list(result.run_id)).toHaveLength(log.events.length);
        expect((await store.steps.list(result.run_id)).map((step) => step.tool)).toEqual(['web_search', 'read_url']);
        expect(await store.modelCalls.list(result.run_id)).toHaveLength(3);
        const messages = await store.conversations.listMessages(result.conversation_id);
        expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
        expect(messages[2]!.toolCallIds).toEqual([`search_${format}`]);
      } finally {
        await store.close();
      }
    });
  }

  it('continues a persisted conversation after a restart', async () => {
    const first = await openRuntime(world.env, world.home);
    const earlier = await runTask(first, { task: 'How does Forge cache tool results (openai)?', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    await first.close();

    const second = await openRuntime(world.env, world.home);
    const followUp = await runTask(second, { task: 'And which page did you read?', model: 'openai:gpt-4.1-mini', conversationId: earlier.conversation_id, maxRetries: 0 });
    await second.close();

    expect(followUp).toMatchObject({ status: 'completed', conversation_id: earlier.conversation_id, llm_calls: 1 });
    const request = requestsMentioning(world.mock, 'And which page did you read?').at(-1)!;
    const body = JSON.stringify(request.body);
    expect(body).toContain('How does Forge cache tool results (openai)?');
    expect(body).toContain('canonical JSON of its arguments');
  });

  it('refuses an unknown conversation id clearly', async () => {
    const runtime = await openRuntime(world.env, world.home);
    try {
      await expect(runTask(runtime, { task: 'x', model: 'openai:gpt-4.1-mini', conversationId: 'nope' })).rejects.toThrow(/No conversation with id "nope"/);
    } finally {
      await runtime.close();
    }
  });
});
