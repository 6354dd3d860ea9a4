import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/runs/run-log/index.js';
import { openRuntime, runTask, type RunTaskResult } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

/** Runs a task on a fresh runtime, closes it, and reads back what the store kept. */
async function runAndReopen(world: EngineWorld, task: string, options: { maxRetries?: number } = {}) {
  const runtime = await openRuntime(world.env, world.home);
  let result: RunTaskResult;
  try {
    result = await runTask(runtime, { task, model: 'openai:gpt-4.1-mini', maxRetries: options.maxRetries ?? 0 });
  } finally {
    await runtime.close();
  }
  const store = await openStore({ url: runtime.config.databaseUrl });
  try {
    return {
      result,
      run: await store.runs.get(result.run_id),
      events: await store.events.list(result.run_id),
      steps: await store.steps.list(result.run_id),
      messages: await store.conversations.listMessages(result.conversation_id),
      log: await readRunLog(result.log_file),
    };
  } finally {
    await store.close();
  }
}

describe('engine failure paths: a clear error event and nothing lost', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    const { mock, web } = world;
    mock.on({ userMessage: 'unknown tool case', hasToolResult: false }, { toolCalls: [{ id: 'rockets', name: 'launch_rockets', arguments: { count: 3 } }] });
    mock.on({ userMessage: 'unknown tool case', hasToolResult: true }, { content: 'I have no rockets.' });
    mock.on({ userMessage: 'bad arguments case', hasToolResult: false }, { toolCalls: [{ id: 'bad_args', name: 'web_search', arguments: { query: 42, max_results: 500 } }] });
    mock.on({ userMessage: 'bad arguments case', hasToolResult: true }, { content: 'My arguments were wrong.' });
    mock.on({ userMessage: 'throwing tool case', hasToolResult: false }, { toolCalls: [{ id: 'missing_page', name: 'read_url', arguments: { url: web.pages.notFound } }] });
    mock.on({ userMessage: 'throwing tool case', hasToolResult: true }, { content: 'The page does not exist.' });
    mock.on({ userMessage: 'blocked fetch case', hasToolResult: false }, { toolCalls: [{ id: 'metadata', name: 'http_request', arguments: { method: 'GET', url: 'http://169.254.169.254/latest/meta-data/' } }] });
    mock.on({ userMessage: 'blocked fetch case', hasToolResult: true }, { content: 'That address is off limits.' });
    mock.on({ userMessage: 'provider failure case' }, { content: 'Recovered after the failure.' });
    mock.addFixture({ match: { userMessage: 'dropped stream case' }, response: { content: 'This answer is long enough to be cut into several streamed chunks before the end.' }, chunkSize: 5, truncateAfterChunks: 2 });
  });
  afterAll(async () => {
    await world.close();
  });

  it('an unknown tool name goes back to the model as an error and the run goes on', async () => {
    const { result, events, steps } = await runAndReopen(world, 'unknown tool case');
    expect(result.status).toBe('completed');
    expect(result.steps[0]).toMatchObject({ ok: false, tool: 'launch_rockets', error: { name: 'ToolNotFoundError' } });
    expect(result.steps[0]!.output).toContain('web_search');
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ call_id: 'rockets', error: { name: 'ToolNotFoundError' } });
    expect(steps).toHaveLength(1);
  });

  it('arguments that fail the schema are named field by field and nothing runs', async () => {
    const searchesBefore = world.search.requests.length;
    const { result } = await runAndReopen(world, 'bad arguments case');
    expect(result.steps[0]).toMatchObject({ ok: false, error: { name: 'ToolInputError' } });
    expect(result.steps[0]!.output).toContain('query:');
    expect(result.steps[0]!.output).toContain('max_results:');
    expect(world.search.requests.length).toBe(searchesBefore);
  });

  it('a tool that fails reports why to the model', async () => {
    const { result, events } = await runAndReopen(world, 'throwing tool case');
    expect(result.status).toBe('completed');
    expect(result.steps[0]!.ok).toBe(false);
    expect(result.steps[0]!.output).toMatch(/404/);
    expect(events.some((event) => event.type === 'tool-error')).toBe(true);
  });

  it('a request to a metadata address is refused by the guard inside a run', async () => {
    const { result } = await runAndReopen(world, 'blocked fetch case');
    expect(result.steps[0]).toMatchObject({ ok: false, error: { name: 'NetworkBlockedError' } });
  });

  for (const status of [500, 429]) {
    it(`a provider ${status} ends the run with a clear error, and the store keeps everything already written`, async () => {
      world.mock.nextRequestError(status, { message: `injected ${status}` });
      const { result, run, events, messages, log } = await runAndReopen(world, 'provider failure case');
      expect(result).toMatchObject({ status: 'failed', halt_reason: 'error', llm_calls: 0, answer: null });
      expect(result.error?.message).toContain(String(status));
      const modelError = events.find((event) => event.type === 'model-error');
      expect(modelError).toMatchObject({ status_code: status });
      expect(run).toMatchObject({ status: 'failed', haltReason: 'error' });
      expect(events.map((event) => event.type)).toEqual(['run-start', 'model-call-start', 'model-error', 'run-end']);
      expect(log.events).toHaveLength(events.length);
      expect(messages.map((message) => message.role)).toEqual(['user']);
    });
  }

  it('a 429 is retried when retries are allowed, and the retry is not a second billed call', async () => {
    world.mock.nextRequestError(429, { message: 'slow down' });
    const before = requestsMentioning(world.mock, 'provider failure case').length;
    const { result } = await runAndReopen(world, 'provider failure case', { maxRetries: 1 });
    expect(result).toMatchObject({ status: 'completed', llm_calls: 1, answer: 'Recovered after the failure.' });
    expect(requestsMentioning(world.mock, 'provider failure case').length - before).toBe(2);
  });

  it('a stream dropped mid-way is a model error, not a silent partial answer', async () => {
    const { result, events, run } = await runAndReopen(world, 'dropped stream case');
    expect(result).toMatchObject({ status: 'failed', halt_reason: 'error', answer: null });
    expect(events.some((event) => event.type === 'model-error')).toBe(true);
    expect(run).toMatchObject({ status: 'failed' });
  });
});
